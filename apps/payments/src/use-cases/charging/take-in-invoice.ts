import type { EntityManager } from '@mikro-orm/postgresql';
import { insertInvoicePayments } from '../../db/charge-store.js';
import { isChargeable } from '../../domain/card-invoice.js';
import type { CardInvoice } from '../../domain/directory.js';

/** Where an invoice taken in comes from: its organization, its clock's now, whether that is a test clock. */
export interface TakeInOrigin {
  organizationId: string;
  now: Date;
  testClock: boolean;
}

/**
 * Takes issued card invoices in for charging (a consumer's batch, or the test clock's advance) in
 * one statement, in the caller's transaction, each one's first attempt due when it was issued (else
 * `now`, the organization's clock). Once per invoice: the invoice.issued consumer and the test
 * clock's advance may both bring it, the second finds its row; an invoice named twice is taken in
 * by its first. Invoices that are not chargeable are ignored. Answers the invoices taken in now.
 */
export async function takeInCardInvoices(
  em: EntityManager,
  items: ReadonlyArray<{ invoice: CardInvoice; origin: TakeInOrigin }>,
): Promise<Set<string>> {
  const rows = new Map<string, Parameters<typeof insertInvoicePayments>[1][number]>();
  for (const { invoice, origin } of items) {
    if (!isChargeable(invoice) || rows.has(invoice.invoiceId)) continue;
    rows.set(invoice.invoiceId, {
      invoice_id: invoice.invoiceId,
      organization_id: origin.organizationId,
      account_id: invoice.accountId,
      invoice_number: invoice.invoiceNumber,
      amount: invoice.balance,
      currency: invoice.currency,
      test_clock: origin.testClock,
      next_attempt_at: invoice.issuedAt ?? origin.now,
      created_at: origin.now,
      updated_at: origin.now,
    });
  }
  return insertInvoicePayments(em, [...rows.values()]);
}
