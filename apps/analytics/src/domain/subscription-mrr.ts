import { type CurrencyCode, type Decimal, MoneyDecimal, money } from '@billing/money';
import { toBaseMrr } from './base-mrr.js';
import type { SubscriptionRecord } from './subscription-record.js';

/** A subscription's contributions to total-mrr, in the base currency (0 where it has none). */
export interface MrrFigures {
  total_mrr: Decimal;
  future_mrr: Decimal;
  pending_mrr: Decimal;
}

/**
 * gaps.md §8 total-mrr, per subscription: active and not_renewing count in total_mrr;
 * pending_manual_renewal in pending_manual_renewal_mrr; future_mrr is the MRR once every known
 * scheduled start, change and cancellation took effect (a scheduled subscription's, the waiting
 * change's, 0 for a subscription set to end). `mrr` is the pricing in force, `scheduledMrr` the
 * pricing after the waiting change (null: none); both exact in the subscription's currency.
 */
export function mrrFigures(
  status: string,
  mrr: string,
  scheduledMrr: string | null,
  rate: Decimal | null,
  base: CurrencyCode,
): MrrFigures {
  const zero = new MoneyDecimal(0);
  const inBase = (exact: string) => toBaseMrr(money(exact), rate, base) ?? zero;
  const committed = inBase(scheduledMrr ?? mrr);
  switch (status) {
    case 'active':
      return { total_mrr: inBase(mrr), future_mrr: committed, pending_mrr: zero };
    case 'not_renewing':
      return { total_mrr: inBase(mrr), future_mrr: zero, pending_mrr: zero };
    case 'scheduled':
      return { total_mrr: zero, future_mrr: committed, pending_mrr: zero };
    case 'pending_manual_renewal':
      return { total_mrr: zero, future_mrr: zero, pending_mrr: inBase(mrr) };
    default:
      return { total_mrr: zero, future_mrr: zero, pending_mrr: zero };
  }
}

const COUNTED = new Set(['active', 'not_renewing']);

/** The stored figures of a subscription's MRR row that its change moves the organization's totals from. */
export interface StoredMrrFigures {
  status: string;
  total_mrr: string;
  future_mrr: string;
  pending_mrr: string;
}

/** How a subscription's change moves its organization's totals (2 decimals, as the totals store them). */
export interface MrrTotalsChange {
  total_mrr: string;
  future_mrr: string;
  pending_mrr: string;
  subscriptions_count: number;
}

/** The change of the totals from the stored row's figures (none: a new subscription) to the new ones. */
export function mrrTotalsChange(stored: StoredMrrFigures | null, figures: MrrFigures, status: string): MrrTotalsChange {
  const before = stored
    ? {
        total: money(stored.total_mrr),
        future: money(stored.future_mrr),
        pending: money(stored.pending_mrr),
        count: COUNTED.has(stored.status) ? 1 : 0,
      }
    : { total: new MoneyDecimal(0), future: new MoneyDecimal(0), pending: new MoneyDecimal(0), count: 0 };
  return {
    total_mrr: figures.total_mrr.minus(before.total).toFixed(2),
    future_mrr: figures.future_mrr.minus(before.future).toFixed(2),
    pending_mrr: figures.pending_mrr.minus(before.pending).toFixed(2),
    subscriptions_count: (COUNTED.has(status) ? 1 : 0) - before.count,
  };
}

/** Several changes of one organization's totals as one (each already rounded as it is stored: the sum is exact). */
export function sumOfTotalsChanges(changes: readonly MrrTotalsChange[]): MrrTotalsChange {
  const zero = new MoneyDecimal(0);
  const sum = (pick: (change: MrrTotalsChange) => string) =>
    changes.reduce((total, change) => total.plus(money(pick(change))), zero).toFixed(2);
  return {
    total_mrr: sum((change) => change.total_mrr),
    future_mrr: sum((change) => change.future_mrr),
    pending_mrr: sum((change) => change.pending_mrr),
    subscriptions_count: changes.reduce((count, change) => count + change.subscriptions_count, 0),
  };
}

/**
 * The subscription_mrr columns of a subscription after a change: its record, the rate held and
 * its figures in the base currency; `invalid` once cancelled with cancel_invalid.
 */
export function subscriptionMrrColumns(
  organizationId: string,
  record: SubscriptionRecord,
  rate: Decimal | null,
  figures: MrrFigures,
  invalid: boolean,
) {
  return {
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
    invalid,
  };
}

export type SubscriptionMrrColumns = ReturnType<typeof subscriptionMrrColumns>;
