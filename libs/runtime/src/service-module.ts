import type { Clock } from '@billing/clock';
import type { MigrationClass } from '@billing/db';
import type { EventBus } from '@billing/events';
import type { GrpcService } from '@billing/grpc';
import type { Logger } from '@billing/observability';
import type { MikroORM, Options } from '@mikro-orm/postgresql';
import type pg from 'pg';

/** What a running service hands its transports and workers. */
export interface ServiceDeps {
  orm: MikroORM;
  /** Raw queries on the same schema, for hot read paths. */
  pool: pg.Pool;
  clock: Clock;
  logger: Logger;
  bus: EventBus | null;
}

/** Something a service runs beside its gRPC server (a relay, a consumer, a scheduler). */
export interface BackgroundWorker {
  stop(): Promise<void>;
}

/**
 * Everything that makes one service, declared once, so the standalone process (main.ts), the
 * all-in-one local runner and the tests start it the same way.
 */
export interface ServiceModule {
  /** Also the default schema name and the event producer name: 'accounts'. */
  name: string;
  /** gRPC port when run as its own process and GRPC_PORT is unset. */
  defaultGrpcPort: number;
  entities: NonNullable<Options['entities']>;
  migrations: MigrationClass[];
  grpcServices(deps: ServiceDeps): GrpcService[];
  /** Streams this service publishes to through its outbox; none for a service without events. */
  publishesEvents: boolean;
  /** Consumers and schedulers, started once the bus is there. */
  workers?(deps: ServiceDeps): Promise<BackgroundWorker[]>;
  /**
   * Reads every variable of its own the service reads (beyond ServiceProcessConfig's), throwing
   * ConfigError naming the first one out of range. main.ts calls it before anything starts: a bad
   * value read later surfaced only once the service had migrated, connected and started consumers,
   * and the process exited only after stopping them (a CI run's refusal test waited over 30 s).
   */
  checkConfig?(env: NodeJS.ProcessEnv): void;
}
