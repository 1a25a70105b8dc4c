import type { EntityManager } from '@mikro-orm/postgresql';
import { ActivityEntity } from '../db/entities/activity.entity.js';
import { SubscriptionMrrEntity } from '../db/entities/subscription-mrr.entity.js';
import { invoiceActivityRow } from '../db/invoice-activity-store.js';

/** An invoice as its activity names it. */
export interface InvoiceFacts {
  uuid: string;
  account: string;
  /** The subscription of its first line that has one (payment events do not say: null). */
  subscription: string | null;
}

/** The invoice's subscription as its invoice_sent / invoice_paid activity names it (null before either). */
async function subscriptionOfInvoice(em: EntityManager, organizationId: string, invoiceId: string) {
  const known = await em.findOne(
    ActivityEntity,
    { organization_id: organizationId, invoice_id: invoiceId, type: { $in: ['invoice_sent', 'invoice_paid'] } },
    { fields: ['subscription_id'], orderBy: { seq: 'asc' } },
  );
  return known?.subscription_id ?? null;
}

/** gaps.md §8: invoice issued / paid / card payment succeeded: an activity without MRR naming the invoice. */
export async function recordInvoiceActivity(
  em: EntityManager,
  organizationId: string,
  type: 'invoice_sent' | 'invoice_paid' | 'payment_made',
  invoice: InvoiceFacts,
  at: Date,
): Promise<void> {
  // payment.succeeded names the invoice only: its subscription comes from the invoice's activities,
  // and an invoice event that arrives after the payment's (streams are not ordered against each
  // other) names it on the payment_made activity then.
  const subscriptionId =
    type === 'payment_made' ? await subscriptionOfInvoice(em, organizationId, invoice.uuid) : invoice.subscription;
  const subscription = subscriptionId
    ? await em.findOne(SubscriptionMrrEntity, { id: subscriptionId }, { fields: ['invalid'] })
    : null;
  if (type !== 'payment_made' && subscriptionId)
    await em.nativeUpdate(
      ActivityEntity,
      { organization_id: organizationId, invoice_id: invoice.uuid, type: 'payment_made', subscription_id: null },
      { subscription_id: subscriptionId, dropped: subscription?.invalid ?? false },
    );
  em.create(
    ActivityEntity,
    // The invoices of a subscription made by mistake (cancel_invalid) count as little as it does.
    invoiceActivityRow(organizationId, type, invoice, subscriptionId, subscription?.invalid ?? false, at),
  );
  await em.flush();
}
