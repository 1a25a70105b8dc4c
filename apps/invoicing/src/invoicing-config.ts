import { loadConfig } from '@billing/config';
import { z } from 'zod';

const schema = z.object({
  /** The accounts service (accounts and organizations for invoices). */
  ACCOUNTS_ADDRESS: z.string().min(1).default('127.0.0.1:50051'),
  /** Pause between passes of the grouped-invoice issuer and the mail sender. */
  INVOICING_WORKER_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
});

export interface InvoicingConfig {
  accountsAddress: string;
  workerIntervalMs: number;
}

export function loadInvoicingConfig(env: NodeJS.ProcessEnv = process.env): InvoicingConfig {
  const config = loadConfig('invoicing', schema, env);
  return { accountsAddress: config.ACCOUNTS_ADDRESS, workerIntervalMs: config.INVOICING_WORKER_INTERVAL_MS };
}
