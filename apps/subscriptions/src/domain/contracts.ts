import { addDays, compareLocalDates, formatLocalDate, parseLocalDate } from './local-time.js';
import { addIntervals } from './periods.js';
import type { ContractPricing, Tier } from './pricing.js';

/** The fields of a contract (gaps §5) that decide whether and how it applies. Dates are 'YYYY-MM-DD'. */
export interface Contract extends ContractPricing {
  plan_terms: string;
  start_date: string;
  /** null: no end. */
  end_date: string | null;
  /** Months; 0 = no commitment. */
  commitment_length: number;
  tiers: readonly Tier[];
}

/**
 * A contract applies to a subscription of its account on its plan terms when the renewal or change
 * date (the organization's local day) lies between start_date and end_date, both inclusive.
 */
export function contractApplies(contract: Contract, termsUuid: string, localDay: string): boolean {
  if (contract.plan_terms !== termsUuid) return false;
  const day = parseLocalDate(localDay);
  if (compareLocalDates(day, parseLocalDate(contract.start_date)) < 0) return false;
  return contract.end_date === null || compareLocalDates(day, parseLocalDate(contract.end_date)) <= 0;
}

/**
 * The contract that prices a subscription on `localDay`: among the applicable ones, the one that
 * started last (the newest agreement wins), then the first given. null when none applies.
 */
export function applicableContract<C extends Contract>(
  contracts: readonly C[],
  termsUuid: string,
  localDay: string,
): C | null {
  let found: C | null = null;
  for (const contract of contracts) {
    if (!contractApplies(contract, termsUuid, localDay)) continue;
    if (!found || compareLocalDates(parseLocalDate(contract.start_date), parseLocalDate(found.start_date)) > 0) {
      found = contract;
    }
  }
  return found;
}

/** The first local day after the commitment: start_date + commitment_length months (month-end clamped). */
export function commitmentEnd(contract: Pick<Contract, 'start_date' | 'commitment_length'>): string {
  if (!Number.isSafeInteger(contract.commitment_length) || contract.commitment_length < 0) {
    throw new RangeError('commitment_length must be an integer >= 0');
  }
  return formatLocalDate(
    addIntervals(parseLocalDate(contract.start_date), { type: 'month', count: 1 }, contract.commitment_length),
  );
}

/** Whether the commitment runs on `localDay`: start_date <= day < commitmentEnd. */
export function withinCommitment(
  contract: Pick<Contract, 'start_date' | 'commitment_length'>,
  localDay: string,
): boolean {
  const day = parseLocalDate(localDay);
  return (
    compareLocalDates(day, parseLocalDate(contract.start_date)) >= 0 &&
    compareLocalDates(day, parseLocalDate(commitmentEnd(contract))) < 0
  );
}

/** A commitment that binds a subscription: the contract, and its first and last local day (both inclusive). */
export interface Commitment {
  contract: string;
  first_day: string;
  last_day: string;
}

/**
 * The commitment that binds subscriptions on `termsUuid` on `localDay` (gaps §5: while it runs they
 * cannot be cancelled). Every contract of the account on those terms whose commitment runs that day
 * binds all of them, whichever was created first and whatever the contract's end_date (the
 * commitment is start_date + commitment_length months on its own). When several do, the one ending
 * last; null when none.
 */
export function bindingCommitment(
  contracts: readonly (Pick<Contract, 'plan_terms' | 'start_date' | 'commitment_length'> & { uuid: string })[],
  termsUuid: string,
  localDay: string,
): Commitment | null {
  let found: Commitment | null = null;
  for (const contract of contracts) {
    if (contract.plan_terms !== termsUuid || !withinCommitment(contract, localDay)) continue;
    const lastDay = addDays(parseLocalDate(commitmentEnd(contract)), -1);
    if (!found || compareLocalDates(lastDay, parseLocalDate(found.last_day)) > 0) {
      found = { contract: contract.uuid, first_day: contract.start_date, last_day: formatLocalDate(lastDay) };
    }
  }
  return found;
}
