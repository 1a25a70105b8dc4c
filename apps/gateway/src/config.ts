import { defaultMetricsPort, loadConfig, port, serviceEnv } from '@billing/config';
import { z } from 'zod';

const gatewayEnv = z.object({
  DATABASE_URL: serviceEnv.DATABASE_URL,
  DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/)
    .default('gateway'),
  HOST: z.string().default('0.0.0.0'),
  PORT: port(8000),
  METRICS_HOST: z.string().default('0.0.0.0'),
  METRICS_PORT: port(defaultMetricsPort('gateway')),
  ACCOUNTS_ADDRESS: z.string().min(1).default('accounts:50051'),
  SUBSCRIPTIONS_ADDRESS: z.string().min(1).default('subscriptions:50052'),
  INVOICING_ADDRESS: z.string().min(1).default('invoicing:50053'),
  ANALYTICS_ADDRESS: z.string().min(1).default('analytics:50054'),
  PAYMENTS_ADDRESS: z.string().min(1).default('payments:50055'),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5_000),
  GRPC_DEADLINE_MS: z.coerce.number().int().min(1).default(5_000),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  LOG_LEVEL: serviceEnv.LOG_LEVEL,
});

export type GatewayConfig = z.infer<typeof gatewayEnv>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfig('gateway', gatewayEnv, env);
