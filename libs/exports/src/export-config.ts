import { loadConfig } from '@billing/config';
import { z } from 'zod';

const schema = z.object({
  /** Pause between the export worker's passes when no job waits. */
  EXPORT_WORKER_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(500),
});

/** How often an exporting service's worker looks for jobs (EXPORT_WORKER_INTERVAL_MS). */
export function exportWorkerIntervalMs(service: string, env: NodeJS.ProcessEnv = process.env): number {
  return loadConfig(service, schema, env).EXPORT_WORKER_INTERVAL_MS;
}
