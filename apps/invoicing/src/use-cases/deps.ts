import type { Clock } from '@billing/clock';
import type { invoicingV1 } from '@billing/proto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Directory } from '../directory/directory.js';

/** Sends an issued invoice with its PDF (src/mail). */
export interface InvoiceSender {
  send(
    invoice: invoicingV1.Invoice,
    pdf: Buffer,
    recipients: { email: string; name?: string }[],
  ): Promise<{ sent_to: string[] }>;
}

/** What the invoicing use cases need: the service's database, its clock, the accounts directory. */
export interface InvoicingDeps {
  orm: MikroORM;
  clock: Clock;
  directory: Directory;
}
