import { type CurrencyCode, type Decimal, MoneyDecimal, money } from '@billing/money';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { mrrFigures } from '../domain/subscription-mrr.js';
import type { SubscriptionRecord } from '../domain/subscription-record.js';
import { SubscriptionMrrEntity, type SubscriptionMrrRow } from './entities/subscription-mrr.entity.js';

const COUNTED = new Set(['active', 'not_renewing']);

/** The stored MRR row of a subscription, locked for this transaction's change. */
export function lockSubscriptionMrr(em: EntityManager, subscriptionId: string): Promise<SubscriptionMrrRow | null> {
  return em.findOne(SubscriptionMrrEntity, { id: subscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

export const heldRateOf = (row: SubscriptionMrrRow): Decimal | null => (row.rate == null ? null : money(row.rate));

/**
 * Stores the subscription's MRR after a change (when the record is not older than the stored one)
 * and moves the organization's totals by the difference, in the same transaction.
 */
export async function saveSubscriptionMrr(
  em: EntityManager,
  organizationId: string,
  stored: SubscriptionMrrRow | null,
  record: SubscriptionRecord,
  rate: Decimal | null,
  base: CurrencyCode,
  invalid: boolean,
): Promise<void> {
  if (stored && stored.version > record.version) return;
  const figures = mrrFigures(record.status, record.pricing.mrr, record.scheduled?.mrr ?? null, rate, base);
  const columns = {
    organization_id: organizationId,
    account_id: record.account,
    plan_id: record.pricing.plan,
    terms_id: record.pricing.terms,
    status: record.status,
    collection_method: record.collection_method,
    currency: record.pricing.currency,
    quantity: record.pricing.quantity,
    interval_type: record.interval_type,
    interval_count: record.interval_count,
    has_custom_price: record.has_custom_price,
    payment_terms: record.payment_terms,
    start_date: record.start_date,
    original_start_date: record.original_start_date,
    next_renewal_date: record.next_renewal_date,
    end_date: record.end_date,
    last_modified_date: record.last_modified_date,
    mrr: money(record.pricing.mrr).toFixed(20),
    rate: rate?.toFixed(10) ?? null,
    total_mrr: figures.total_mrr.toFixed(2),
    future_mrr: figures.future_mrr.toFixed(2),
    pending_mrr: figures.pending_mrr.toFixed(2),
    churn_reason: record.churn_reason,
    custom_churn_reason: record.custom_churn_reason,
    version: record.version,
    invalid: invalid || (stored?.invalid ?? false),
  };
  const before = stored
    ? {
        total: money(stored.total_mrr),
        future: money(stored.future_mrr),
        pending: money(stored.pending_mrr),
        count: COUNTED.has(stored.status) ? 1 : 0,
      }
    : { total: new MoneyDecimal(0), future: new MoneyDecimal(0), pending: new MoneyDecimal(0), count: 0 };
  if (stored) em.assign(stored, columns);
  else em.create(SubscriptionMrrEntity, { id: record.uuid, ...columns });
  await em.flush();
  await em.execute(
    `insert into mrr_totals (organization_id, total_mrr, future_mrr, pending_mrr, subscriptions_count)
       values (?, ?, ?, ?, ?)
       on conflict (organization_id) do update set
         total_mrr = mrr_totals.total_mrr + excluded.total_mrr,
         future_mrr = mrr_totals.future_mrr + excluded.future_mrr,
         pending_mrr = mrr_totals.pending_mrr + excluded.pending_mrr,
         subscriptions_count = mrr_totals.subscriptions_count + excluded.subscriptions_count`,
    [
      organizationId,
      figures.total_mrr.minus(before.total).toFixed(2),
      figures.future_mrr.minus(before.future).toFixed(2),
      figures.pending_mrr.minus(before.pending).toFixed(2),
      (COUNTED.has(record.status) ? 1 : 0) - before.count,
    ],
    'run',
  );
}
