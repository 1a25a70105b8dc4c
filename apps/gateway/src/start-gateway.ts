import type { Clock } from '@billing/clock';
import { type ReadinessCheck, type RunningMetricsServer, startMetricsServer } from '@billing/observability';
import { IdentityAuthenticator } from './auth/identity-authenticator.js';
import { connectServiceClients, type ServiceAddresses } from './clients/service-clients.js';
import { CachingAuthenticator, createHttpApp, type HttpLogger, listen } from './http/index.js';
import { probeRoutes } from './http/probe-routes.js';
import { PostgresIdempotencyStore } from './idempotency/index.js';
import { REQUEST_EXAMPLES } from './openapi/request-examples.js';
import { gatewayCallbacks } from './pages/gateway-callbacks.js';
import { noopCardPages } from './pages/noop-card-page.js';
import { selfServicePages } from './pages/self-service/self-service-pages.js';
import { PostgresRateLimiter } from './rate-limit/index.js';
import { allRoutes } from './routes/index.js';
import { closeGatewayPool, openGatewayPool } from './storage/gateway-storage.js';

export interface GatewayOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  services: ServiceAddresses;
  /** Postgres holding the gateway's own schema (rate-limit counters and idempotency keys shared by all replicas). */
  databaseUrl: string;
  schema?: string;
  clock: Clock;
  /** The platform's pino logger (@billing/observability createLogger) or anything with its methods. */
  logger: HttpLogger;
  /** How long a token's answer is reused; a disabled token is refused at most this long after. */
  authCacheTtlMs?: number;
  trustProxy?: boolean;
  grpcDeadlineMs?: number;
  /** Serve GET /metrics, /healthz and /readyz on this port (0: a free one); unset: no metrics port. */
  metrics?: { host: string; port: number };
}

export interface RunningGateway {
  url: string;
  port: number;
  /** `http://host:port` of the metrics port, when it has one. */
  metricsUrl?: string;
  stop(): Promise<void>;
}

export const DEFAULT_AUTH_CACHE_TTL_MS = 5_000;

/** The gateway: REST in, gRPC out; it owns no business data, only rate-limit counters and idempotency keys. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const clients = connectServiceClients(options.services, options.grpcDeadlineMs);
  // Rate-limit counters are not money: losing the last few increments in a database crash is
  // acceptable, waiting for a WAL flush on every request (one hot row per API user) is not.
  // Its connections show in pg_stat_activity under its schema's name, as each service's do, unless
  // the environment names them (libpq's PGAPPNAME) or the URL does (pg reads the URL last).
  const applicationName = process.env.PGAPPNAME || (options.schema ?? 'gateway');
  const pool = openGatewayPool(
    {
      connectionString: options.databaseUrl,
      max: 10,
      options: '-c synchronous_commit=off',
      application_name: applicationName,
    },
    options.logger,
  );
  const rateLimiter = new PostgresRateLimiter(pool, { schema: options.schema ?? 'gateway' });
  await rateLimiter.ensureSchema();
  const cleanup = rateLimiter.startCleanup({
    clock: options.clock,
    onError: (error) => options.logger.error({ err: error }, 'rate limit cleanup failed'),
  });
  // Ready while its PostgreSQL answers: every API request counts against a rate limit there.
  const readiness: ReadinessCheck[] = [
    {
      name: 'postgres',
      check: async () => {
        await pool.query('select 1');
      },
    },
  ];
  // Idempotency keys decide whether a retried POST runs again: their commits wait for the WAL
  // flush, so an answer the client saw is never forgotten by a database crash.
  const idempotencyPool = openGatewayPool(
    { connectionString: options.databaseUrl, max: 10, application_name: applicationName },
    options.logger,
  );
  const idempotencyStore = new PostgresIdempotencyStore(idempotencyPool, { schema: options.schema ?? 'gateway' });
  await idempotencyStore.ensureSchema();
  const idempotencyCleanup = idempotencyStore.startCleanup({
    clock: options.clock,
    onError: (error) => options.logger.error({ err: error }, 'idempotency key cleanup failed'),
  });
  const app = createHttpApp({
    routes: allRoutes(clients),
    authenticator: new CachingAuthenticator(
      new IdentityAuthenticator(clients.identity),
      options.clock,
      options.authCacheTtlMs ?? DEFAULT_AUTH_CACHE_TTL_MS,
    ),
    rateLimiter,
    idempotencyStore,
    clock: options.clock,
    logger: options.logger,
    requestExamples: REQUEST_EXAMPLES,
    pages: [noopCardPages(clients), gatewayCallbacks(clients), selfServicePages(clients)],
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    probes: probeRoutes(readiness, options.logger),
  });
  let metrics: RunningMetricsServer | undefined;
  if (options.metrics) {
    metrics = await startMetricsServer({
      ...options.metrics,
      readiness,
      onError: (error) => options.logger.error({ err: error }, 'metrics request failed'),
    });
  }
  const server = await listen(app, options.port, options.host);
  options.logger.info({ url: server.url, metrics_url: metrics?.url }, 'gateway listening');
  return {
    url: server.url,
    port: server.port,
    ...(metrics ? { metricsUrl: metrics.url } : {}),
    async stop() {
      await server.close();
      await metrics?.close();
      cleanup();
      idempotencyCleanup();
      clients.close();
      await Promise.all([closeGatewayPool(pool), closeGatewayPool(idempotencyPool)]);
    },
  };
}
