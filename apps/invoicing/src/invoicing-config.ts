import { loadConfig } from '@billing/config';
import { z } from 'zod';
import type { AccessPointConfig } from './einvoice/access-point.js';

const schema = z.object({
  /** The accounts service (accounts and organizations for invoices). */
  ACCOUNTS_ADDRESS: z.string().min(1).default('127.0.0.1:50051'),
  /** Pause between passes of the grouped-invoice issuer and the mail sender. */
  INVOICING_WORKER_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /**
   * Pause between passes of the payment reminder sender (organizations on the real clock). Reminders
   * fall due by the day: a pass a minute asks the accounts service little and is never a day late.
   */
  INVOICING_REMINDER_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  /**
   * Batches of charge.created invoiced at once by this process (each a pull on the shared durable,
   * as a replica's). A batch spends most of its time waiting for accounts and Postgres and holds the
   * organization's number counter only to number and write its invoices, so a second batch makes
   * its calls meanwhile. Numbers stay gapless, but two charges in different batches (a change's
   * credit note and new invoice) may be numbered in either order, as with two replicas: hence 1.
   */
  INVOICING_CHARGE_CONSUMERS: z.coerce.number().int().min(1).max(8).default(1),
  /** The Peppol access point e-invoices are POSTed to; unset: e-invoices wait, pending. */
  EINVOICE_ACCESS_POINT_URL: z.url().optional(),
  /** The token the access point knows us by (sent as a bearer token). */
  EINVOICE_ACCESS_POINT_TOKEN: z.string().default(''),
});

export interface InvoicingConfig {
  accountsAddress: string;
  workerIntervalMs: number;
  reminderIntervalMs: number;
  /** Charge batches in flight at once (INVOICING_CHARGE_CONSUMERS). */
  chargeConsumers: number;
  /** Where e-invoices are delivered (docs/invoicing.md "E-invoices"); null: not configured. */
  accessPoint: AccessPointConfig | null;
}

export function loadInvoicingConfig(env: NodeJS.ProcessEnv = process.env): InvoicingConfig {
  const config = loadConfig('invoicing', schema, env);
  return {
    accountsAddress: config.ACCOUNTS_ADDRESS,
    workerIntervalMs: config.INVOICING_WORKER_INTERVAL_MS,
    reminderIntervalMs: config.INVOICING_REMINDER_INTERVAL_MS,
    chargeConsumers: config.INVOICING_CHARGE_CONSUMERS,
    accessPoint: config.EINVOICE_ACCESS_POINT_URL
      ? { url: config.EINVOICE_ACCESS_POINT_URL, token: config.EINVOICE_ACCESS_POINT_TOKEN }
      : null,
  };
}
