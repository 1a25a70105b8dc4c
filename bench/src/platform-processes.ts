import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { checkHealth, ServingStatus } from '@billing/grpc';
import {
  BENCH_RATE_LIMIT_PER_MINUTE,
  type BenchPlatform,
  benchOrganizationName,
  SetupError,
} from './bench-platform.js';
import { apiHeaders } from './seed-accounts.js';

export interface ProcessPlatformOptions {
  databaseUrl: string;
  natsUrl: string;
  /** Run both servers with --cpu-prof, each writing into its own folder under this one. */
  cpuProfDir?: string | undefined;
  /** Extra NODE_OPTIONS for both servers (e.g. --perf-basic-prof for `perf record`). */
  nodeOptions?: string | undefined;
  log(message: string): void;
  /** Also run the analytics service (its consumers of the others' events), for benchmarks that read it. */
  analytics?: boolean;
  /** Also run the payments service (it charges the card invoices), for benchmarks that need it. */
  payments?: boolean;
  /**
   * Extra environment per service (e.g. the card gateway's URL for payments), for every replica
   * but GRPC_PORT, which only the first takes (the gateway and the services still call the port
   * the bench picked: an override is for a test of the start itself).
   */
  environment?: Partial<Record<ServiceName, Record<string, string>>>;
  /** More than one process of a service, consuming its durables together (default 1 each). */
  replicas?: Partial<Record<ServiceName, number>>;
}

/**
 * The production shape, with what the fault tests do to it: kill a service's processes outright
 * (kill -9, no graceful stop) and start them again with the same configuration.
 */
export interface ProcessPlatform extends BenchPlatform {
  /** SIGKILL to every process of the service; resolves once they have exited. */
  kill(service: ServiceName): Promise<void>;
  /** Starts the service's processes again (after kill), as configured at the start. */
  restart(service: ServiceName): void;
}

/**
 * The services the benchmark runs, and the gateway variable naming each one's address. Each runs
 * from its built entry point with its own schema, as deployed.
 */
const SERVICES = [
  { name: 'accounts', addressVariable: 'ACCOUNTS_ADDRESS' },
  { name: 'subscriptions', addressVariable: 'SUBSCRIPTIONS_ADDRESS' },
  { name: 'invoicing', addressVariable: 'INVOICING_ADDRESS' },
] as const;
const ANALYTICS = { name: 'analytics', addressVariable: 'ANALYTICS_ADDRESS' } as const;
const PAYMENTS = { name: 'payments', addressVariable: 'PAYMENTS_ADDRESS' } as const;
export type ServiceName = (typeof SERVICES)[number]['name'] | typeof ANALYTICS.name | typeof PAYMENTS.name;

// Migrations run at the first start against a fresh database; a loaded 2-core machine is slow.
const READY_TIMEOUT_MS = 90_000;
const POLL_INTERVAL_MS = 100;
// Each server stops gracefully within a second or two (in-flight calls drain, pools close).
const STOP_TIMEOUT_MS = 15_000;
const OUTPUT_TAIL_LINES = 40;

/**
 * The production shape (README "Configuration"): the gateway and each service the measured GET
 * reaches (SERVICES) as separate processes, started from their built entry points with this Node
 * (`process.execPath`) and configured by environment only, exactly like `node
 * apps/accounts/dist/main.js` in a container. The services publish their events to NATS JetStream,
 * as they must when they run alone. The benchmark organization is created with the admin CLI, also
 * a separate process.
 */
export function startPlatformProcesses(options: ProcessPlatformOptions): Promise<ProcessPlatform> {
  return retryingTakenPorts(() => startPlatformOnce(options), options.log);
}

/** How many times a platform is started when a server could not listen on the port it was given. */
const START_ATTEMPTS = 3;

/**
 * Runs `start` again (up to START_ATTEMPTS in all) when it failed because a server found its port
 * taken (EADDRINUSE in its last output). freePort finds a port that is free when it looks, and the
 * child binds it a second or two later; meanwhile any process on the machine may take it, an
 * outgoing connection too (its local port comes from the same ephemeral range as listen(0)'s); a
 * full CI run, with test files starting platforms side by side, once failed so.
 * `start` stops what it started before it fails, and picks new ports each time.
 */
export async function retryingTakenPorts<T>(start: () => Promise<T>, log: (message: string) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      const taken = error instanceof SetupError && error.message.includes('EADDRINUSE');
      if (!taken || attempt >= START_ATTEMPTS) throw error;
      log(
        `a server found the port it was given taken meanwhile; starting again on new ports (${attempt + 1} of ${START_ATTEMPTS})`,
      );
    }
  }
}

/**
 * A service's own `environment` over the bench's variables, except that a NODE_OPTIONS of its own
 * joins the profiling flags instead of replacing them (a profiled run keeps its profiles).
 */
export function withEnvironment(
  bench: Record<string, string>,
  environment: Record<string, string> | undefined,
): Record<string, string> {
  const joined = { ...bench, ...environment };
  if (bench.NODE_OPTIONS && environment?.NODE_OPTIONS) {
    joined.NODE_OPTIONS = `${bench.NODE_OPTIONS} ${environment.NODE_OPTIONS}`;
  }
  return joined;
}

async function startPlatformOnce(options: ProcessPlatformOptions): Promise<ProcessPlatform> {
  const entries = entryPoints(options.analytics ?? false, options.payments ?? false);
  await assertNatsReachable(options.natsUrl);
  const services = [...SERVICES, ...(options.analytics ? [ANALYTICS] : []), ...(options.payments ? [PAYMENTS] : [])];

  const ports = {} as Record<ServiceName, number>;
  for (const service of services) ports[service.name] = await freePort();
  const httpPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${httpPort}`;
  const children: ServerChild[] = [];
  let kill: ProcessPlatform['kill'] = async () => {};
  let restart: ProcessPlatform['restart'] = () => {};
  const stop = async () => {
    const errors: unknown[] = [];
    // The gateway first, so nothing calls the accounts service while it drains.
    for (const child of [...children].reverse()) await child.stop().catch((error: unknown) => errors.push(error));
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'stopping the platform processes failed');
  };
  try {
    const profile = (name: string): Record<string, string> => {
      const flags = options.nodeOptions ? [options.nodeOptions] : [];
      if (options.cpuProfDir) {
        const dir = resolve(options.cpuProfDir, name);
        mkdirSync(dir, { recursive: true });
        flags.push(`--cpu-prof --cpu-prof-dir=${dir}`);
      }
      return flags.length ? { NODE_OPTIONS: flags.join(' ') } : {};
    };
    // The measured GET calls only accounts (the account with its subscription_set and
    // draftinvoiceline_set, from accounts' read model), but subscriptions and invoicing run too, as
    // deployed: they feed that read model, and their background work (outbox relays, schedulers)
    // shares the machine. They reach accounts at ACCOUNTS_ADDRESS.
    // What each service process is started with, kept for restart().
    const serviceStarts = new Map<ServiceName, Array<() => ServerChild>>();
    // Where each service process listens for gRPC, by process name (replicas included).
    const grpcPorts = new Map<string, number>();
    for (const service of services) {
      const replicas = options.replicas?.[service.name] ?? 1;
      const starts = Array.from({ length: replicas }, (_, replica) => {
        // The first replica listens where the gateway and the other services call; the others only consume.
        const grpcPort = replica === 0 ? Promise.resolve(ports[service.name]) : freePort();
        return async () => {
          const port = await grpcPort;
          const name = replica === 0 ? service.name : `${service.name}-${replica + 1}`;
          const variables: Record<string, string> = {
            DATABASE_URL: options.databaseUrl,
            NATS_URL: options.natsUrl,
            DB_SCHEMA: service.name,
            GRPC_HOST: '127.0.0.1',
            GRPC_PORT: String(port),
            METRICS_PORT: '0',
            ...(service.name === 'accounts' ? {} : { ACCOUNTS_ADDRESS: `127.0.0.1:${ports.accounts}` }),
            // Payments marks the invoices it charged paid through invoicing.
            ...(service.name === 'payments' ? { INVOICING_ADDRESS: `127.0.0.1:${ports.invoicing}` } : {}),
            LOG_LEVEL: 'warn',
            ...withEnvironment(profile(name), options.environment?.[service.name]),
            // A GRPC_PORT given in `environment` is the first replica's: the others keep their own.
            ...(replica === 0 ? {} : { GRPC_PORT: String(port) }),
          };
          // Where the process listens, its GRPC_PORT given in `environment` included: the health
          // check asks that port.
          grpcPorts.set(name, Number(variables.GRPC_PORT));
          return () => new ServerChild(name, entries[service.name], variables);
        };
      });
      serviceStarts.set(service.name, await Promise.all(starts.map((start) => start())));
    }
    for (const starts of serviceStarts.values()) for (const start of starts) children.push(start());
    // restart() and kill() act on every replica of a service: processes named after it.
    const processesOf = (service: ServiceName) =>
      children.filter((child) => child.name === service || child.name.startsWith(`${service}-`));
    kill = async (service) => {
      const victims = processesOf(service);
      await Promise.all(victims.map((child) => child.kill()));
      for (const victim of victims) children.splice(children.indexOf(victim), 1);
    };
    restart = (service) => {
      if (processesOf(service).length > 0) throw new Error(`${service} is still running: kill it first`);
      // Before the gateway, so that stop() still stops the gateway first.
      children.unshift(...(serviceStarts.get(service) ?? []).map((start) => start()));
    };
    children.push(
      new ServerChild('gateway', entries.gateway, {
        DATABASE_URL: options.databaseUrl,
        DB_SCHEMA: 'gateway',
        HOST: '127.0.0.1',
        PORT: String(httpPort),
        METRICS_PORT: '0',
        ...Object.fromEntries(services.map((service) => [service.addressVariable, `127.0.0.1:${ports[service.name]}`])),
        LOG_LEVEL: 'warn',
        ...profile('gateway'),
      }),
    );
    options.log(
      `started ${children
        .map((child) =>
          child.name === 'gateway'
            ? `gateway (pid ${child.pid}, ${gatewayUrl})`
            : `${child.name} (pid ${child.pid}${child.name in ports ? `, gRPC 127.0.0.1:${ports[child.name as ServiceName]}` : ''})`,
        )
        .join(', ')} with ${process.execPath}`,
    );

    // Without a token the gateway answers 401 by itself: it is listening.
    await waitUntil('the gateway to answer', children, async () => (await probe(gatewayUrl, {})) === 401);

    const { organizationId, token } = await createOrganizationWithCli(entries.adminCli, options.databaseUrl);

    // An authenticated request goes through the accounts service (token check, then the list call):
    // 200 means the gRPC hop works end to end. Until the service listens the gateway answers 503.
    await waitUntil('the accounts service to answer through the gateway', children, async () => {
      return (await probe(gatewayUrl, apiHeaders(token))) === 200;
    });
    // Every service process serving on its port, not only those the gateway's probe reaches: a
    // process whose port was taken meanwhile exits (EADDRINUSE), which waitUntil reports, and the
    // platform is started again on new ports (retryingTakenPorts), instead of the run going on
    // without it and failing only when it is stopped.
    await waitUntil('every service process to serve gRPC', children, () => allServing(grpcPorts));
    // A process that exited while another server answered on its port (another platform's service
    // bound it meanwhile) must not pass for serving.
    for (const child of children) child.assertRunning('after every gRPC port answered SERVING');

    return {
      label: 'platform (gateway + service processes)',
      gatewayUrl,
      accountsSchema: 'accounts',
      setSchemas: { subscriptions: 'subscriptions', invoicing: 'invoicing' },
      organizationId,
      token,
      servers: children.map((child) => ({ name: child.name, pid: child.pid })),
      stop,
      kill,
      restart,
    };
  } catch (error) {
    await stop().catch((stopError: unknown) => options.log(`stopping after a failed start: ${String(stopError)}`));
    throw error;
  }
}

/** The built entry points, found through the workspace packages this one depends on. */
function entryPoints(analytics: boolean, payments: boolean) {
  const dist = (pkg: string) => fileURLToPath(new URL('.', import.meta.resolve(pkg)));
  const entries = {
    accounts: resolve(dist('@billing/accounts'), 'main.js'),
    adminCli: resolve(dist('@billing/accounts'), 'admin/cli.js'),
    subscriptions: resolve(dist('@billing/subscriptions'), 'main.js'),
    invoicing: resolve(dist('@billing/invoicing'), 'main.js'),
    gateway: resolve(dist('@billing/gateway'), 'main.js'),
    // Only looked for when asked: the other benchmarks do not run it.
    analytics: analytics ? resolve(dist('@billing/analytics'), 'main.js') : '',
    payments: payments ? resolve(dist('@billing/payments'), 'main.js') : '',
  };
  for (const path of Object.values(entries)) {
    if (path && !existsSync(path)) {
      throw new SetupError(`${path} is missing: build first (npx nx run-many -t build, or npm run bench)`);
    }
  }
  return entries;
}

/**
 * Fails early, with a message saying what to do, when NATS is not there: the service processes would
 * otherwise exit with a connection error of its own. NATS greets every client with an INFO line,
 * which also tells whether JetStream is enabled.
 */
async function assertNatsReachable(natsUrl: string): Promise<void> {
  const first = natsUrl.split(',')[0]!.trim();
  const url = new URL(first.includes('://') ? first : `nats://${first}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 4222);
  const hint =
    'the production shape needs NATS with JetStream (e.g. `nats-server -js`); ' +
    'point --nats-url or BENCH_NATS_URL at it, or run the platform in this process with --in-process';
  const info = await new Promise<string>((resolveInfo, reject) => {
    const socket = connect({ host, port });
    let received = '';
    const fail = (reason: string) => {
      socket.destroy();
      reject(new SetupError(`NATS is not reachable at ${natsUrl} (${reason}): ${hint}`));
    };
    socket.setTimeout(3_000, () => fail('no answer within 3 s'));
    socket.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (!received.includes('\n')) return;
      socket.destroy();
      resolveInfo(received.split('\n')[0]!);
    });
  });
  // A TLS-only server or another protocol answers differently; leave that to the client to report.
  if (!info.startsWith('INFO ')) return;
  const { jetstream } = JSON.parse(info.slice(5)) as { jetstream?: boolean };
  if (jetstream === false) throw new SetupError(`NATS at ${natsUrl} has JetStream disabled: ${hint}`);
}

/** The ports freePort handed out in this process: each is bound only later, by a child. */
const handedOut = new Set<number>();

/**
 * A port free now, never one handed out before in this process: the kernel may give a port just
 * closed to the next listen(0), and two services were once given the same one (the second child
 * then failed with EADDRINUSE and the run stopped).
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** One GET /api/v1/accounts/; the status, or 0 when the connection failed. */
async function probe(gatewayUrl: string, headers: Record<string, string>): Promise<number> {
  try {
    const response = await fetch(new URL('/api/v1/accounts/', gatewayUrl), {
      headers,
      signal: AbortSignal.timeout(2_000),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

async function waitUntil(what: string, children: ServerChild[], ready: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    for (const child of children) child.assertRunning(`while waiting for ${what}`);
    if (await ready()) return;
    if (performance.now() > deadline) {
      throw new SetupError(`timed out after ${READY_TIMEOUT_MS / 1000} s waiting for ${what}`);
    }
    await new Promise((resolveDelay) => setTimeout(resolveDelay, POLL_INTERVAL_MS));
  }
}

/** Whether each process's gRPC health check answers SERVING for the whole server. */
async function allServing(grpcPorts: ReadonlyMap<string, number>): Promise<boolean> {
  const statuses = await Promise.all(
    [...grpcPorts.values()].map((port) => checkHealth(`127.0.0.1:${port}`).catch(() => ServingStatus.UNKNOWN)),
  );
  return statuses.every((status) => status === ServingStatus.SERVING);
}

/**
 * `npm run -s admin -- create-org ...` without npm and nx around it: the CLI's built entry point
 * with the database and schema in its environment. It prints the organization and its first
 * token as JSON on stdout.
 */
async function createOrganizationWithCli(
  cli: string,
  databaseUrl: string,
): Promise<{ organizationId: string; token: string }> {
  const args = [
    cli,
    'create-org',
    '--name',
    benchOrganizationName(),
    '--rate-limit',
    String(BENCH_RATE_LIMIT_PER_MINUTE),
  ];
  const child = spawn(process.execPath, args, {
    env: baseEnvironment({ DATABASE_URL: databaseUrl, DB_SCHEMA: 'accounts' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolveExit(exitCode));
  });
  if (code !== 0) throw new SetupError(`admin create-org exited with ${code}: ${stderr.trim() || stdout.trim()}`);
  let parsed: { organization?: { id?: unknown }; token?: { token?: unknown } };
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error(`admin create-org printed no JSON: ${stdout.trim()}`);
  }
  const organizationId = parsed.organization?.id;
  const token = parsed.token?.token;
  if (typeof organizationId !== 'string' || typeof token !== 'string') {
    throw new Error(`admin create-org printed no organization id and token: ${stdout.trim()}`);
  }
  return { organizationId, token };
}

/**
 * Only what a container would have besides the service's own variables: a process configured by
 * variables left over in the caller's shell (AUTH_CACHE_TTL_MS, MIGRATE_ON_START, ...) would not
 * be the default production configuration.
 */
function baseEnvironment(variables: Record<string, string>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG']) {
    if (process.env[name] !== undefined) inherited[name] = process.env[name];
  }
  return { ...inherited, ...variables };
}

/** A server process: output forwarded with its name, the last lines kept for error messages. */
class ServerChild {
  readonly pid: number;
  private readonly child: ChildProcess;
  private readonly tail: string[] = [];
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    entry: string,
    variables: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [entry], {
      env: baseEnvironment(variables),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: Ctrl-C reaches only the bench, which stops the servers with SIGTERM
      // (one signal, one graceful stop) instead of racing a terminal SIGINT.
      detached: true,
    });
    if (this.child.pid === undefined) throw new Error(`${name}: could not start ${process.execPath} ${entry}`);
    this.pid = this.child.pid;
    liveChildren.add(this.child);
    this.exited = new Promise((resolveExit) => {
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        liveChildren.delete(this.child);
        resolveExit();
      });
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        this.tail.push(line);
        if (this.tail.length > OUTPUT_TAIL_LINES) this.tail.shift();
        process.stderr.write(`[${name}] ${line}\n`);
      });
    }
  }

  assertRunning(context: string): void {
    if (!this.exit) return;
    const { code, signal } = this.exit;
    throw new SetupError(
      `${this.name} (pid ${this.pid}) exited (${signal ?? `code ${code}`}) ${context}` +
        (this.tail.length ? `; its last output:\n${this.tail.join('\n')}` : ''),
    );
  }

  /** SIGKILL (kill -9): no graceful stop, nothing drained; resolves once the process is gone. */
  async kill(): Promise<void> {
    if (!this.exit) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, then asserts that the process exits, cleanly, within STOP_TIMEOUT_MS. */
  async stop(): Promise<void> {
    if (this.exit) {
      this.assertRunning('before it was stopped');
      return;
    }
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolveTimeout) => {
        timer = setTimeout(() => resolveTimeout(true), STOP_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      this.child.kill('SIGKILL');
      await this.exited;
      throw new Error(`${this.name} (pid ${this.pid}) did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
    }
    const { code, signal } = this.exit!;
    if (code !== 0)
      throw new Error(`${this.name} (pid ${this.pid}) exited with ${signal ?? `code ${code}`} on SIGTERM`);
  }
}

// Last resort: if the bench process exits without stopping them (a bug, an uncaught error), the
// servers must not outlive it and keep their ports and database connections.
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});
