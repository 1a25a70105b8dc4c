import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildHandle {
  child: ChildProcess;
  /** stdout and stderr interleaved so far, for failure messages. */
  output(): string;
  stdout(): string;
  stderr(): string;
  exit: Promise<Exit>;
  /** Null while it runs. */
  exited(): Exit | null;
}

/** Starts `command` with exactly `env` in `cwd`, capturing its output. */
export function start(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildHandle {
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  let result: Exit | null = null;
  const exit = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      result = { code, signal };
      resolve(result);
    });
  });
  return { child, output: () => output, stdout: () => stdout, stderr: () => stderr, exit, exited: () => result };
}

/** Waits for a command to finish: its exit code and what it printed. */
export async function runToEnd(handle: ChildHandle): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { code } = await handle.exit;
  // 'exit' can come before the last output: wait for the streams to close.
  await new Promise<void>((resolve) => {
    if (handle.child.stdout?.closed && handle.child.stderr?.closed) resolve();
    else handle.child.once('close', () => resolve());
  });
  return { code, stdout: handle.stdout(), stderr: handle.stderr() };
}

/** The exit within `ms`, or null if it still runs then. */
export async function exitWithin(handle: ChildHandle, ms: number): Promise<Exit | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([handle.exit, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A port the OS just handed out and released, for a child configured by environment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
