import { z } from 'zod';

/** Environment fields every service shares. */
export const serviceEnv = {
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  NATS_URL: z.string().min(1).optional(),
  GRPC_HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);
