import { systemClock } from '@billing/clock';
import { checkHealth, ServingStatus } from '@billing/grpc';
import { createLogger } from '@billing/observability';
import type { ServiceModule } from './service-module.js';
import { startService } from './start-service.js';

export interface BootReport {
  /** The overall gRPC health status once started. */
  health: keyof typeof ServingStatus;
  /** Tables the service's migrations created in its schema, sorted. */
  tables: string[];
}

/**
 * Starts a service on its own schema (migrations included) without a bus, asks its gRPC health
 * check, lists its tables and stops it: the proof that a service "starts, connects to its own
 * schema and answers the health check".
 */
export async function bootCheck(
  module: ServiceModule,
  database: { databaseUrl: string; schema: string },
): Promise<BootReport> {
  const service = await startService(module, {
    databaseUrl: database.databaseUrl,
    schema: database.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock: systemClock,
    logger: createLogger(module.name, 'silent'),
    bus: null,
    migrateOnStart: true,
  });
  try {
    const status = await checkHealth(service.address);
    const rows = await service.orm.em
      .getConnection()
      .execute<{ table_name: string }[]>(
        'select table_name from information_schema.tables where table_schema = ? order by table_name',
        [database.schema],
      );
    return {
      health: ServingStatus[status] as keyof typeof ServingStatus,
      tables: rows.map((row) => row.table_name),
    };
  } finally {
    await service.stop();
  }
}
