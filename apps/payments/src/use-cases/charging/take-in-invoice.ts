import type { EntityManager } from '@mikro-orm/postgresql';
import { InvoicePaymentEntity } from '../../db/entities/invoice-payment.entity.js';
import { isChargeable } from '../../domain/card-invoice.js';
import type { CardInvoice } from '../../domain/directory.js';

/**
 * Takes an issued card invoice in for charging, its first attempt due when it was issued (else
 * `now`, the organization's clock), in the caller's transaction. Once per invoice: the invoice.issued consumer and the test
 * clock's advance may both bring it, the second finds its row. Other invoices are ignored.
 */
export async function takeInCardInvoice(
  em: EntityManager,
  invoice: CardInvoice,
  origin: { organizationId: string; now: Date; testClock: boolean },
): Promise<boolean> {
  if (!isChargeable(invoice)) return false;
  const inserted = await em
    .createQueryBuilder(InvoicePaymentEntity)
    .insert({
      invoice_id: invoice.invoiceId,
      organization_id: origin.organizationId,
      account_id: invoice.accountId,
      invoice_number: invoice.invoiceNumber,
      amount: invoice.balance,
      currency: invoice.currency,
      status: 'pending',
      test_clock: origin.testClock,
      next_attempt_at: invoice.issuedAt ?? origin.now,
      first_attempt_at: null,
      attempts_made: 0,
      created_at: origin.now,
      updated_at: origin.now,
    })
    .onConflict('invoice_id')
    .ignore()
    .execute('run');
  return inserted.affectedRows > 0;
}
