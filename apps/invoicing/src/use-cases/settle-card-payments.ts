import { inTransaction } from '@billing/db';
import { AppError } from '@billing/errors';
import type { EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { CollectedChangeRecords, orgNow, requireOrganization } from '@billing/runtime';
import type { InvoiceRow } from '../db/entities/invoice.entity.js';
import { invoiceViewsOfRows } from '../db/invoice-view.js';
import { lockIssuedInvoiceRows, writeInvoicesPaid } from '../db/settle-store.js';
import { INVALID_DATE, isIsoDate } from '../domain/local-day.js';
import { publishInvoiceEvent } from '../events/invoice-events.js';
import type { InvoicingDeps } from './deps.js';

/** A card payment of one invoice: the attempt that charged it and the organization's day it was paid. */
export interface CardSettlement {
  uuid: string;
  payment: string;
  paidDate: string;
}

/**
 * settleCardPayment (gaps.md §11) for a batch of the payments service's charges, in one
 * transaction: the invoices locked with one query, each open one paid (balance 0, its paid date,
 * its version one up, an audit row and invoice.paid with its lines and reminders, read with one
 * query each), in the order given. Idempotent like settleCardPayment: an invoice already paid or
 * settled otherwise (credited) is answered unchanged, as is one named twice. Answers the invoices
 * found, each once; an unknown uuid is left out (payments retries it).
 *
 * A change as runChange makes one (its events handed to the accounts read model after the
 * commit), with the invoices, lines and reminders as plain rows and the paid invoices, audit rows
 * and events written one statement each, past the unit of work (db/settle-store.ts).
 */
export async function settleCardPayments(
  deps: InvoicingDeps,
  context: RequestContext,
  settlements: readonly CardSettlement[],
): Promise<string[]> {
  if (settlements.some(({ paidDate }) => !isIsoDate(paidDate))) throw AppError.invalidField('paid_date', INVALID_DATE);
  if (settlements.length === 0) return [];
  const organizationId = requireOrganization(context);
  let published: EventEnvelope[] = [];
  const found = await inTransaction(deps.orm, async (em) => {
    // A retried transaction starts again: only the events of the attempt that commits count.
    published = [];
    const records = new CollectedChangeRecords('invoicing', { published });
    const scope = records.scope(em, organizationId, context, orgNow(deps.clock, context));
    const rows = await lockIssuedInvoiceRows(
      em,
      organizationId,
      settlements.map(({ uuid }) => uuid),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const paid: InvoiceRow[] = [];
    for (const { uuid, payment, paidDate } of settlements) {
      const row = byId.get(uuid);
      if (row?.status !== 'open' || row.is_credit_note) continue;
      // publishInvoiceChange's version step (the row is locked: versions never repeat).
      Object.assign(row, {
        balance: '0',
        status: 'paid',
        paid_date: paidDate,
        updated_at: scope.now,
        version: row.version + 1,
      });
      scope.audit('invoice.card_payment', 'invoice', row.id, { payment, paid_date: paidDate });
      paid.push(row);
    }
    await writeInvoicesPaid(em, organizationId, paid);
    for (const view of await invoiceViewsOfRows(em, paid)) publishInvoiceEvent(scope, 'invoice.paid', view);
    await records.write(em);
    return byId;
  });
  if (published.length > 0 && deps.committedEvents) await deps.committedEvents(published, context);
  return [...new Set(settlements.map(({ uuid }) => uuid).filter((uuid) => found.has(uuid)))];
}
