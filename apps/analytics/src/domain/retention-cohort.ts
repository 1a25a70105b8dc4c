import { type Decimal, MoneyDecimal } from '@billing/money';
import { type MrrPoint, pointAt } from './mrr-timeline.js';

/** An account as the cohort report reads it: its cohort month and its MRR over time. */
export interface CohortAccount {
  /** YYYY-MM of its first subscription start (organization's time zone). */
  cohort: string;
  /** Its account MRR points in time order; the first one with MRR is its starting MRR. */
  points: MrrPoint[];
}

export interface CohortRow {
  cohort: string;
  accounts: number;
  starting_mrr: Decimal;
  periods: Array<{ period: number; accounts: number; mrr: Decimal }>;
}

/**
 * gaps.md §8 retention-cohort: accounts grouped by the month of their first subscription start;
 * `monthEnds` gives, per cohort, the last moments of its months from the cohort month on (period
 * 0) up to the current month; period k counts the accounts with MRR at the end of the k-th month
 * and sums that MRR. starting_mrr sums each account's first MRR.
 */
export function retentionCohorts(
  accounts: readonly CohortAccount[],
  monthEnds: (cohort: string) => Date[],
): CohortRow[] {
  const byCohort = new Map<string, CohortAccount[]>();
  for (const account of accounts) byCohort.set(account.cohort, [...(byCohort.get(account.cohort) ?? []), account]);
  return [...byCohort.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([cohort, members]) => ({
      cohort,
      accounts: members.length,
      starting_mrr: members.reduce<Decimal>(
        (total, member) => total.plus(member.points.find((point) => point.mrr.greaterThan(0))?.mrr ?? 0),
        new MoneyDecimal(0),
      ),
      periods: monthEnds(cohort).map((end, period) => {
        const mrrs = members.map((member) => pointAt(member.points, end)?.mrr ?? new MoneyDecimal(0));
        const live = mrrs.filter((mrr) => mrr.greaterThan(0));
        return { period, accounts: live.length, mrr: live.reduce<Decimal>((a, b) => a.plus(b), new MoneyDecimal(0)) };
      }),
    }));
}
