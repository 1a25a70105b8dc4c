import { type Decimal, MoneyDecimal } from '@billing/money';
import type { ActivityType } from './activity-type.js';

/** A subscription's MRR at one moment as its activities record it. */
export interface RecordedMrr {
  terms: string | null;
  quantity: number | null;
  mrr: Decimal;
}

/**
 * gaps.md §8, the type of a manual activity by the table, from the subscription's MRR before its
 * date (null: no activity before) to the one written: 0 → more is new (reactivate after a
 * cancel), to 0 is cancel, the same terms with another quantity upgrade_qty / downgrade_qty,
 * otherwise upgrade_subscription / downgraded_subscription / modified by the MRR.
 */
export function manualActivityType(
  before: RecordedMrr | null,
  after: RecordedMrr,
  cancelledBefore: boolean,
): ActivityType {
  const old = before?.mrr ?? new MoneyDecimal(0);
  if (old.isZero() && after.mrr.greaterThan(0)) return cancelledBefore ? 'reactivate' : 'new';
  if (after.mrr.isZero() && old.greaterThan(0)) return 'cancel';
  if (before && before.terms === after.terms && before.quantity !== after.quantity && after.quantity !== null) {
    return (before.quantity ?? 0) < after.quantity ? 'upgrade_qty' : 'downgrade_qty';
  }
  const comparison = after.mrr.comparedTo(old);
  if (comparison > 0) return 'upgrade_subscription';
  if (comparison < 0) return 'downgraded_subscription';
  return 'modified';
}
