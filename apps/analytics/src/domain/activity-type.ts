import type { ActivityType } from '@billing/reference-data';
import { activityMrr, type Pricing } from './pricing.js';

export type { ActivityType } from '@billing/reference-data';

/**
 * gaps.md §8, the activity of a term or quantity change: the same terms and price with another
 * quantity is upgrade_qty / downgrade_qty; other terms or another price (override) is
 * upgrade_subscription / downgraded_subscription / modified by the MRR. Null when neither the
 * terms, the price nor the quantity changed (a plain edit: no MRR movement).
 */
export function changeActivityType(old: Pricing, next: Pricing): ActivityType | null {
  const samePrice = old.terms === next.terms && old.unit_price === next.unit_price;
  if (samePrice) {
    if (next.quantity > old.quantity) return 'upgrade_qty';
    if (next.quantity < old.quantity) return 'downgrade_qty';
    return null;
  }
  const comparison = activityMrr(next).comparedTo(activityMrr(old));
  if (comparison > 0) return 'upgrade_subscription';
  if (comparison < 0) return 'downgraded_subscription';
  return 'modified';
}
