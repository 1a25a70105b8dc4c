import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { runChange } from '@billing/runtime';
import type { InvoiceRow } from '../db/entities/invoice.entity.js';
import { lockIssuedInvoices } from '../db/invoice-store.js';
import { invoiceViewsWithLines } from '../db/invoice-view.js';
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
 */
export async function settleCardPayments(
  deps: InvoicingDeps,
  context: RequestContext,
  settlements: readonly CardSettlement[],
): Promise<string[]> {
  if (settlements.some(({ paidDate }) => !isIsoDate(paidDate))) throw AppError.invalidField('paid_date', INVALID_DATE);
  if (settlements.length === 0) return [];
  return runChange(deps, 'invoicing', context, async (scope) => {
    const rows = await lockIssuedInvoices(
      scope.em,
      scope.organizationId,
      settlements.map(({ uuid }) => uuid),
    );
    const found = new Map(rows.map((row) => [row.id, row]));
    const paid: InvoiceRow[] = [];
    for (const { uuid, payment, paidDate } of settlements) {
      const row = found.get(uuid);
      if (row?.status !== 'open' || row.is_credit_note) continue;
      scope.em.assign(row, { balance: '0', status: 'paid', paid_date: paidDate, updated_at: scope.now });
      // publishInvoiceChange's version step (the row is locked: versions never repeat).
      row.version += 1;
      scope.audit('invoice.card_payment', 'invoice', row.id, { payment, paid_date: paidDate });
      paid.push(row);
    }
    for (const view of await invoiceViewsWithLines(scope.em, paid)) publishInvoiceEvent(scope, 'invoice.paid', view);
    return [...new Set(settlements.map(({ uuid }) => uuid).filter((uuid) => found.has(uuid)))];
  });
}
