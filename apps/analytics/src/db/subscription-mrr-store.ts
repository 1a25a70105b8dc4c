import { type CurrencyCode, type Decimal, money } from '@billing/money';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { mrrFigures, mrrTotalsChange, subscriptionMrrColumns } from '../domain/subscription-mrr.js';
import type { SubscriptionRecord } from '../domain/subscription-record.js';
import { SubscriptionMrrEntity, type SubscriptionMrrRow } from './entities/subscription-mrr.entity.js';

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
  const columns = subscriptionMrrColumns(organizationId, record, rate, figures, invalid || (stored?.invalid ?? false));
  const change = mrrTotalsChange(stored, figures, record.status);
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
    [organizationId, change.total_mrr, change.future_mrr, change.pending_mrr, change.subscriptions_count],
    'run',
  );
}
