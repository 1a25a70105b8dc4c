import { z } from 'zod';

/** Environment fields every service shares. */
export const serviceEnv = {
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  NATS_URL: z.string().min(1).optional(),
  GRPC_HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

/**
 * Each process's default operations port (GET /metrics, /healthz, /readyz): one per service, so
 * that the processes of one host do not collide, as their default gRPC ports do not.
 */
export const DEFAULT_METRICS_PORTS: Readonly<Record<string, number>> = {
  gateway: 9400,
  accounts: 9401,
  subscriptions: 9402,
  invoicing: 9403,
  analytics: 9404,
  payments: 9405,
};

/** A process not in the table: the OpenTelemetry Prometheus exporter's default. */
export const defaultMetricsPort = (process: string): number => DEFAULT_METRICS_PORTS[process] ?? 9464;
