import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** A service started from its build (`dist/main.js`) as an operator starts it: configured by environment. */
export interface BuiltService {
  child: ChildProcess;
  /** What it wrote to stderr so far (its logs, and why it refused to start). */
  stderr(): string;
  /** Kills it (SIGKILL) if it still runs, and waits for it to exit. */
  kill(): Promise<void>;
}

/**
 * Starts `entry` with this test process's Node and environment plus `variables` (the database,
 * NATS, the settings under test); stdout is ignored, stderr kept.
 */
export function startBuiltService(entry: string, variables: Record<string, string>): BuiltService {
  let stderr = '';
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...variables },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return {
    child,
    stderr: () => stderr,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
