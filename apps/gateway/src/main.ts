import { systemClock } from '@billing/clock';
import { exitOnConfigError } from '@billing/config';
import { createLogger, initTracing } from '@billing/observability';
import { loadGatewayConfig } from './config.js';
import { startGateway } from './start-gateway.js';

const config = exitOnConfigError(() => loadGatewayConfig());
const logger = createLogger('gateway', config.LOG_LEVEL);
// Off unless an OTLP endpoint is configured (README "Configuration").
const tracing = await initTracing({ serviceName: 'gateway', logger });
const gateway = await startGateway({
  host: config.HOST,
  port: config.PORT,
  services: {
    accounts: config.ACCOUNTS_ADDRESS,
    subscriptions: config.SUBSCRIPTIONS_ADDRESS,
    invoicing: config.INVOICING_ADDRESS,
    analytics: config.ANALYTICS_ADDRESS,
    payments: config.PAYMENTS_ADDRESS,
  },
  databaseUrl: config.DATABASE_URL,
  schema: config.DB_SCHEMA,
  clock: systemClock,
  logger,
  authCacheTtlMs: config.AUTH_CACHE_TTL_MS,
  grpcDeadlineMs: config.GRPC_DEADLINE_MS,
  trustProxy: config.TRUST_PROXY,
  metrics: { host: config.METRICS_HOST, port: config.METRICS_PORT },
});

const stop = async (signal: string) => {
  logger.info({ signal }, 'shutting down');
  await gateway.stop();
  await tracing.shutdown();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
