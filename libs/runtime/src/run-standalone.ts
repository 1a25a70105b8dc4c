import { systemClock } from '@billing/clock';
import { exitOnConfigError, loadConfig, type ServiceProcessConfig, serviceProcessEnv } from '@billing/config';
import { JetStreamBus, watchConsumerLag } from '@billing/events';
import { createLogger, initTracing, notReady, type ReadinessCheck, startMetricsServer } from '@billing/observability';
import type { ServiceModule } from './service-module.js';
import { startService } from './start-service.js';

/**
 * The production shape: one service per process, configured by environment, events on JetStream.
 * The operations port (METRICS_PORT: /metrics, /healthz, /readyz) opens first, so a liveness probe
 * is answered during migrations; /readyz says 503 until the service is up and again once it stops.
 * SIGTERM/SIGINT stop it gracefully (health goes NOT_SERVING first, in-flight calls finish).
 */
export async function runStandalone(module: ServiceModule, config: ServiceProcessConfig): Promise<void> {
  const logger = createLogger(module.name, config.LOG_LEVEL);
  // Off unless an OTLP endpoint is configured (README "Configuration").
  const tracing = await initTracing({ serviceName: module.name, logger });
  let readiness: readonly ReadinessCheck[] = [notReady('startup', 'starting')];
  const metrics = await startMetricsServer({
    host: config.METRICS_HOST,
    port: config.METRICS_PORT,
    readiness: () => readiness,
    onError: (error) => logger.error({ err: error }, 'metrics request failed'),
  });
  logger.info({ url: metrics.url }, 'metrics, health and readiness listening');
  const bus = await JetStreamBus.connect({ servers: config.NATS_URL, name: module.name, logger });
  const unwatchLag = watchConsumerLag(bus, logger);
  const service = await startService(module, {
    databaseUrl: config.DATABASE_URL,
    schema: config.DB_SCHEMA,
    grpcHost: config.GRPC_HOST,
    grpcPort: config.GRPC_PORT,
    clock: systemClock,
    logger,
    bus,
    migrateOnStart: config.MIGRATE_ON_START,
  });
  readiness = service.readiness;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    readiness = [notReady('shutdown', 'stopping')];
    logger.info({ signal }, 'shutting down');
    await service.stop();
    unwatchLag();
    await bus.close();
    await metrics.close();
    // The spans of the last calls and events, before the process goes.
    await tracing.shutdown();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * main.ts of every service: configuration from the environment, all of it checked before anything
 * connects (a bad value exits 1 at once, naming the variable), then runStandalone.
 */
export async function runFromEnvironment(module: ServiceModule, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = exitOnConfigError(() => {
    const processConfig = loadConfig(module.name, serviceProcessEnv(module.name, module.defaultGrpcPort), env);
    module.checkConfig?.(env);
    return processConfig;
  });
  await runStandalone(module, config);
}
