import type { Decimal } from '@billing/money';
import type { ActivityDraft } from './subscription-activities.js';

/** An activity with the exchange rates its old and new MRR are converted at (null: no rate known). */
export interface RatedActivity extends ActivityDraft {
  old_rate: Decimal | null;
  new_rate: Decimal | null;
}

const sameRate = (a: Decimal | null, b: Decimal | null): boolean => (a === null || b === null ? a === b : a.equals(b));

/**
 * gaps.md §8: a subscription's MRR is converted at the rate of its latest renewal (held for the
 * whole invoiced interval). A start, reactivation or renewal takes the rate of its moment; a
 * renewal at another rate than the one held is preceded by a currency_exchange activity (the same
 * MRR in the subscription's currency, base old → base new). Returns the rate held afterwards.
 */
export function rateActivities(
  drafts: readonly ActivityDraft[],
  heldRate: Decimal | null,
  rateAt: (moment: Date) => Decimal | null,
): { activities: RatedActivity[]; heldRate: Decimal | null } {
  const activities: RatedActivity[] = [];
  let held = heldRate;
  for (const activity of drafts) {
    if (!activity.renewal) {
      activities.push({ ...activity, old_rate: held, new_rate: held });
      continue;
    }
    const rate = rateAt(activity.date);
    if (activity.type === 'renew' && !sameRate(held, rate)) {
      activities.push({
        ...activity,
        type: 'currency_exchange',
        new: activity.old,
        new_mrr: activity.old_mrr,
        old_rate: held,
        new_rate: rate,
      });
    }
    activities.push({ ...activity, old_rate: rate, new_rate: rate });
    held = rate;
  }
  return { activities, heldRate: held };
}

/** Planned activities keep the held rate, but a planned start takes the rate of its day. */
export function ratePlanned(
  drafts: readonly ActivityDraft[],
  heldRate: Decimal | null,
  rateAt: (moment: Date) => Decimal | null,
): RatedActivity[] {
  return drafts.map((activity) => {
    const rate = activity.renewal ? rateAt(activity.date) : heldRate;
    return { ...activity, old_rate: rate, new_rate: rate };
  });
}
