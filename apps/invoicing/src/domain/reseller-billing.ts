/**
 * Reseller billing (api-spec "Account": reseller, reseller_billing_frequency,
 * reseller_billing_grouping; gaps.md §3): every line of an account that names a reseller is
 * invoiced to the reseller, collected on the reseller's collection days and grouped as the
 * reseller's grouping says, each line naming the account it was resold to.
 */

import { RESELLER_BILLING_FREQUENCIES, RESELLER_BILLING_GROUPINGS } from '@billing/reference-data';

// The choices are the account fields' (libs/reference-data), validated where accounts are written.
export type ResellerBillingFrequency = (typeof RESELLER_BILLING_FREQUENCIES)[number];
export type ResellerBillingGrouping = (typeof RESELLER_BILLING_GROUPINGS)[number];

/** A reseller without a frequency is billed monthly on the month's last day (api-spec's "monthly invoices"). */
export const DEFAULT_RESELLER_BILLING_FREQUENCY: ResellerBillingFrequency = 'end_of_month';
/** api-spec: "default is currency grouping". */
export const DEFAULT_RESELLER_BILLING_GROUPING: ResellerBillingGrouping = 'currency';

export function resellerBillingFrequency(value: string | null | undefined): ResellerBillingFrequency {
  return (RESELLER_BILLING_FREQUENCIES as readonly string[]).includes(value ?? '')
    ? (value as ResellerBillingFrequency)
    : DEFAULT_RESELLER_BILLING_FREQUENCY;
}

export function resellerBillingGrouping(value: string | null | undefined): ResellerBillingGrouping {
  return (RESELLER_BILLING_GROUPINGS as readonly string[]).includes(value ?? '')
    ? (value as ResellerBillingGrouping)
    : DEFAULT_RESELLER_BILLING_GROUPING;
}

const DAY_MS = 86_400_000;

function parseDay(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, date!));
}

const formatDay = (date: Date): string => date.toISOString().slice(0, 10);

const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY_MS);

function lastDayOfMonth(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0));
}

function firstDayOfNextMonth(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}

/** The first day on or after `date` that falls on `weekday` (0 Sunday ... 6 Saturday). */
function nextWeekday(date: Date, weekday: number): Date {
  return addDays(date, (weekday - date.getUTCDay() + 7) % 7);
}

/**
 * The collection day of a line dated `day` (YYYY-MM-DD, the organization's local day): the first
 * of the reseller's collection days on or after it. The reseller's invoice is dated that day and
 * issued when that day has ended on the organization's clock, so the lines of the collection day
 * itself are on it. Collection days: daily every day; end_of_week every Sunday and start_of_week
 * every Monday (weeks run Monday to Sunday); end_of_month the month's last day and start_of_month
 * its first; start_and_end_of_month both the first and the last day.
 */
export function resellerCollectionDay(day: string, frequency: ResellerBillingFrequency): string {
  const date = parseDay(day);
  switch (frequency) {
    case 'daily':
      return day;
    case 'end_of_week':
      return formatDay(nextWeekday(date, 0));
    case 'start_of_week':
      return formatDay(nextWeekday(date, 1));
    case 'end_of_month':
      return formatDay(lastDayOfMonth(date));
    case 'start_of_month':
      return date.getUTCDate() === 1 ? day : formatDay(firstDayOfNextMonth(date));
    case 'start_and_end_of_month':
      return date.getUTCDate() === 1 ? day : formatDay(lastDayOfMonth(date));
  }
}

/** The day after `day`: when a collection day has ended, its reseller invoice is issued. */
export function dayAfter(day: string): string {
  return formatDay(addDays(parseDay(day), 1));
}

/** Whether a reseller invoice collected on `collectionDay` is due for issue on the organization's `today`. */
export function collectionEnded(collectionDay: string, today: string): boolean {
  return today > collectionDay;
}

/** What a reseller invoice's lines have in common. */
export interface ResoldLine {
  reseller: string;
  collection_day: string;
  currency: string;
  resold_account: string;
  po_number: string;
}

const KEY_TAG = 'reseller';

/**
 * The group key of the reseller invoice a resold line joins: one pending invoice per reseller,
 * collection day and currency, and per resold account and PO number when the grouping says so.
 * Tagged so that the issuers tell reseller invoices (issued when their collection day ends) from
 * the grouped renewal invoices (issued when their group window has passed).
 */
export function resellerGroupKey(line: ResoldLine, grouping: ResellerBillingGrouping): string {
  const parts = [KEY_TAG, line.reseller, line.collection_day, line.currency];
  if (grouping !== 'currency') parts.push(line.resold_account);
  if (grouping === 'currency_resold_account_po_number') parts.push(line.po_number);
  return JSON.stringify(parts);
}

export function isResellerGroupKey(key: string | null): boolean {
  return key?.startsWith(`["${KEY_TAG}",`) ?? false;
}

/** The PO number a reseller invoice shows: its lines' own only when they are grouped by it. */
export function resellerInvoicePoNumber(poNumber: string, grouping: ResellerBillingGrouping): string {
  return grouping === 'currency_resold_account_po_number' ? poNumber : '';
}
