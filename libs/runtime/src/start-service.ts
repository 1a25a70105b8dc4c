import type { Clock } from '@billing/clock';
import { migrate, openOrm, openPool } from '@billing/db';
import { type EventBus, OutboxRelay, watchOutbox } from '@billing/events';
import { type RunningGrpcServer, startGrpcServer } from '@billing/grpc';
import type { Logger, ReadinessCheck } from '@billing/observability';
import type { MikroORM } from '@mikro-orm/postgresql';
import { keepHealthInLine, serviceReadinessChecks } from './readiness.js';
import type { BackgroundWorker, ServiceDeps, ServiceModule } from './service-module.js';

export interface StartServiceOptions {
  databaseUrl: string;
  /** The schema this service owns; defaults to the module's name. */
  schema?: string;
  grpcHost: string;
  /** 0 picks a free port (tests, the all-in-one runner). */
  grpcPort: number;
  clock: Clock;
  logger: Logger;
  /** Where outbox rows are published and consumers read; null keeps events in the outbox. */
  bus: EventBus | null;
  migrateOnStart: boolean;
  relay?: { batchSize?: number; pollIntervalMs?: number };
}

export interface RunningService {
  name: string;
  address: string;
  port: number;
  orm: MikroORM;
  relay: OutboxRelay | null;
  /** What /readyz checks for this service: its database, and NATS on JetStream. */
  readiness: ReadinessCheck[];
  stop(): Promise<void>;
}

/**
 * Composition root shared by every service: database → migrations → outbox relay → workers →
 * gRPC server (which reports SERVING only once everything before it runs). Stops in reverse order.
 */
export async function startService(module: ServiceModule, options: StartServiceOptions): Promise<RunningService> {
  const logger = options.logger;
  const orm = await openOrm({
    clientUrl: options.databaseUrl,
    schema: options.schema ?? module.name,
    entities: module.entities,
    migrations: module.migrations,
  });
  const pool = openPool({ clientUrl: options.databaseUrl, schema: options.schema ?? module.name });
  const workers: BackgroundWorker[] = [];
  let server: RunningGrpcServer | undefined;
  try {
    if (options.migrateOnStart) {
      const applied = await migrate(orm);
      if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    }
    const deps: ServiceDeps = { orm, pool, clock: options.clock, logger, bus: options.bus };
    let relay: OutboxRelay | null = null;
    if (module.publishesEvents && options.bus) {
      await options.bus.ensureStream(module.name);
      relay = new OutboxRelay({
        orm,
        bus: options.bus,
        producer: module.name,
        logger,
        clock: options.clock,
        batchSize: options.relay?.batchSize,
        pollIntervalMs: options.relay?.pollIntervalMs ?? 200,
      });
      relay.start();
      workers.push(relay);
      const unwatch = watchOutbox({ service: module.name, orm, clock: options.clock, logger });
      workers.push({ stop: async () => void unwatch() });
    } else if (module.publishesEvents) {
      logger.warn('no event bus configured: events stay in the outbox until one is');
    }
    if (module.workers) workers.push(...(await module.workers(deps)));
    const services = module.grpcServices(deps);
    server = await startGrpcServer({ host: options.grpcHost, port: options.grpcPort, services, logger });
    const readiness = serviceReadinessChecks(pool, options.bus);
    const stopHealthRefresh = keepHealthInLine(
      server.health,
      services.map((service) => service.name),
      readiness,
      logger,
    );
    logger.info({ address: server.address }, `${module.name} service listening`);
    const running = server;
    return {
      name: module.name,
      address: running.address,
      port: running.port,
      orm,
      relay,
      readiness,
      async stop() {
        stopHealthRefresh();
        await running.stop(5_000);
        for (const worker of workers.reverse()) await worker.stop();
        await pool.end();
        await orm.close();
      },
    };
  } catch (error) {
    await server?.stop(0);
    for (const worker of workers.reverse()) await worker.stop().catch(() => {});
    await pool.end();
    await orm.close();
    throw error;
  }
}
