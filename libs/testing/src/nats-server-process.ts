import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NatsServerHandle {
  url: string;
  port: number;
  storeDir: string;
  /** The running server's process id (a benchmark charges it with its CPU time); undefined once stopped. */
  readonly pid: number | undefined;
  /** Kills the server (SIGTERM, then SIGKILL); the JetStream store stays for restart(). */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same store, as after a crash or a rolling restart. */
  restart(): Promise<void>;
  /** Stops the server and deletes its store. */
  dispose(): Promise<void>;
}

const READY_LINE = 'Server is ready';
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * A private JetStream-enabled nats-server for tests that must kill and restart the broker, which
 * the shared server on TEST_NATS_URL cannot be used for.
 */
export async function startNatsServer(): Promise<NatsServerHandle> {
  const binary = natsServerBinary();
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'billing-nats-'));
  const args = ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port)];
  let child: ChildProcess | undefined = await launch(binary, args);

  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running) await terminate(running);
  };
  const dispose = async (): Promise<void> => {
    await stop();
    rmSync(storeDir, { recursive: true, force: true });
  };
  // A test that crashes must not leave a broker running or a store behind.
  process.once('exit', () => {
    child?.kill('SIGKILL');
    rmSync(storeDir, { recursive: true, force: true });
  });

  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    get pid() {
      return child?.pid;
    },
    stop,
    dispose,
    restart: async () => {
      await stop();
      child = await launch(binary, args);
    },
  };
}

function natsServerBinary(): string {
  const fromEnv = process.env.NATS_SERVER_BIN;
  if (fromEnv) return fromEnv;
  return existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('Could not determine a free port'));
      });
    });
  });
}

function launch(binary: string, args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    const fail = (reason: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`nats-server ${args.join(' ')} ${reason}\n${output}`));
    };
    const timer = setTimeout(() => fail(`did not become ready within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('error', (error) =>
      fail(`could not be started (${error.message}); install nats-server or set NATS_SERVER_BIN`),
    );
    child.once('exit', (code, signal) => fail(`exited before it was ready (code ${code}, signal ${signal})`));
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(READY_LINE)) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.removeAllListeners('error');
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve(child);
      }
    });
  });
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
