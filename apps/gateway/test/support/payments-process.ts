import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@billing/testing';

/** The built payments service, exactly what `node apps/payments/dist/main.js` runs in a container. */
const PAYMENTS_MAIN = fileURLToPath(new URL('main.js', import.meta.resolve('@billing/payments')));

export interface PaymentsProcess {
  address: string;
  /** Resolves with the exit code once the current process has ended. */
  exited(): Promise<number | null>;
  /** Starts the process again (after an exit), with `env` added to its environment. */
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });

/**
 * The payments service as its own process on a fixed port (so the gateway's client finds it again
 * after a restart), for the crash test: it can be made to exit at the worst moment
 * (PAYMENTS_TEST_CRASH_AFTER_GATEWAY_CALL=1) and be started again.
 */
export async function startPaymentsProcess(options: {
  databaseUrl: string;
  schema: string;
  natsUrl: string;
  env: Record<string, string>;
}): Promise<PaymentsProcess> {
  const port = await freePort();
  let child: ChildProcess;
  let exit: Promise<number | null>;
  let output = '';
  const start = async (extra: Record<string, string>) => {
    child = spawn(process.execPath, [PAYMENTS_MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: options.databaseUrl,
        DB_SCHEMA: options.schema,
        NATS_URL: options.natsUrl,
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: String(port),
        // Metrics, health and readiness on any free port: a test's processes must not collide on the default.
        METRICS_PORT: '0',
        LOG_LEVEL: 'warn',
        ...options.env,
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    let ended = false;
    void exit.then(() => (ended = true));
    await waitFor(
      async () => {
        if (ended) throw new Error(`payments exited while starting: ${output}`);
        return (await accepts(port)) ? true : undefined;
      },
      { timeoutMs: 90_000, description: 'the payments process to listen' },
    );
  };
  await start({});
  return {
    address: `127.0.0.1:${port}`,
    exited: () => exit,
    restart: (env = {}) => start(env),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exit;
      }
    },
  };
}
