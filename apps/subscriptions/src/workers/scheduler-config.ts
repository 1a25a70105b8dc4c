import { loadConfig } from '@billing/config';
import { z } from 'zod';

const schema = z.object({
  /** false: this replica serves gRPC only (another runs the scheduler). */
  SCHEDULER_ENABLED: z.enum(['true', 'false']).default('true'),
  /** Pause between passes when nothing is due. */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(1000),
  /** Subscriptions claimed per transaction. */
  SCHEDULER_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(200),
});

export interface SchedulerConfig {
  enabled: boolean;
  intervalMs: number;
  batchSize: number;
}

export function loadSchedulerConfig(env: NodeJS.ProcessEnv = process.env): SchedulerConfig {
  const config = loadConfig('subscriptions', schema, env);
  return {
    enabled: config.SCHEDULER_ENABLED === 'true',
    intervalMs: config.SCHEDULER_INTERVAL_MS,
    batchSize: config.SCHEDULER_BATCH_SIZE,
  };
}
