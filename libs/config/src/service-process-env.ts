import { z } from 'zod';
import { defaultMetricsPort, port, serviceEnv } from './common-env.js';

/**
 * The environment of a service running as its own process (the production shape). Every service
 * reads the same variables; only the defaults of schema and port differ.
 */
export function serviceProcessEnv(schema: string, grpcPort: number) {
  return z.object({
    DATABASE_URL: serviceEnv.DATABASE_URL,
    // Events leave through JetStream when the service runs alone.
    NATS_URL: z.string().min(1),
    DB_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/)
      .default(schema),
    GRPC_HOST: serviceEnv.GRPC_HOST,
    GRPC_PORT: port(grpcPort),
    // GET /metrics, /healthz and /readyz; 0 picks a free port.
    METRICS_HOST: serviceEnv.GRPC_HOST,
    METRICS_PORT: port(defaultMetricsPort(schema)),
    LOG_LEVEL: serviceEnv.LOG_LEVEL,
    MIGRATE_ON_START: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
  });
}

export type ServiceProcessConfig = z.infer<ReturnType<typeof serviceProcessEnv>>;
