import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ActivityEntity, type ActivityRow } from '../db/entities/activity.entity.js';
import { SubscriptionMrrEntity } from '../db/entities/subscription-mrr.entity.js';

/** An invoice as its activity names it. */
export interface InvoiceFacts {
  uuid: string;
  account: string;
  /** The subscription of its first line that has one. */
  subscription: string | null;
}

/** gaps.md §8: invoice issued / paid / card payment succeeded: an activity without MRR naming the invoice. */
export async function recordInvoiceActivity(
  em: EntityManager,
  organizationId: string,
  type: 'invoice_sent' | 'invoice_paid' | 'payment_made',
  invoice: InvoiceFacts,
  at: Date,
): Promise<void> {
  const subscription = invoice.subscription
    ? await em.findOne(SubscriptionMrrEntity, { id: invoice.subscription }, { fields: ['invalid'] })
    : null;
  em.create(ActivityEntity, {
    id: randomUUID(),
    organization_id: organizationId,
    account_id: invoice.account,
    subscription_id: invoice.subscription,
    invoice_id: invoice.uuid,
    type,
    date: at,
    created_date: at,
    updated_date: at,
    is_manual: false,
    is_churn: false,
    deleted: false,
    // The invoices of a subscription made by mistake (cancel_invalid) count as little as it does.
    dropped: subscription?.invalid ?? false,
    planned: false,
    plan_key: null,
    old_currency: null,
    new_currency: null,
    old_mrr_in_subscription_currency: null,
    new_mrr_in_subscription_currency: null,
    old_mrr: null,
    new_mrr: null,
    mrr_change: null,
    old_quantity: null,
    new_quantity: null,
    old_terms: null,
    new_terms: null,
    old_plan: null,
    new_plan: null,
    churn_reason: null,
    custom_churn_reason: null,
  } as ActivityRow);
  await em.flush();
}
