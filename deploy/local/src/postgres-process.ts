import { type ChildProcess, spawn } from 'node:child_process';
import type { RunAs } from './postgres-user.js';

export interface PostgresProcessOptions {
  /** The `postgres` server binary. */
  binary: string;
  dataDir: string;
  port: number;
  /** The user it runs as (started as root); unset: this process's. */
  runAs: RunAs | undefined;
  /** Everything the server writes (it logs to stderr). */
  onLog(message: string): void;
}

export interface PostgresProcess {
  /** Fast shutdown (SIGINT): open sessions are ended, committed data is kept. */
  stop(): Promise<void>;
}

const READY = 'database system is ready to accept connections';

/**
 * Runs a PostgreSQL server in its own session, resolving once it accepts connections.
 *
 * Its own session, because a terminal's Ctrl-C goes to the whole foreground process group: in
 * `npm start`'s group, PostgreSQL would take that SIGINT as a fast shutdown and cut the connections
 * of services still finishing their work. Outside it, `npm start` stops the services first and
 * PostgreSQL last. Should this process exit without stopping it (an uncaught error), it is stopped
 * on the way out all the same.
 */
export async function spawnPostgres(options: PostgresProcessOptions): Promise<PostgresProcess> {
  const child = spawn(options.binary, ['-D', options.dataDir, '-p', String(options.port)], {
    ...options.runAs,
    // Its data folder: the folder `npm start` was started from may be closed to that user.
    cwd: options.dataDir,
    // Messages in English whatever the user's locale: READY is matched below.
    env: { ...process.env, LC_MESSAGES: 'C' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  child.stdout!.on('data', (chunk: Buffer) => options.onLog(chunk.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      let recent = ''; // a line may arrive in two chunks
      child.stderr!.on('data', (chunk: Buffer) => {
        const message = chunk.toString();
        options.onLog(message);
        recent = (recent + message).slice(-2 * READY.length);
        if (recent.includes(READY)) resolve();
      });
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`PostgreSQL exited during start-up (${signal ?? `exit code ${code}`})`)),
      );
    });
  } catch (error) {
    process.removeListener('exit', stopOnExit);
    throw error;
  }
  return {
    async stop() {
      process.removeListener('exit', stopOnExit);
      if (hasExited(child)) return;
      child.kill('SIGINT');
      await exited;
    },
  };
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}
