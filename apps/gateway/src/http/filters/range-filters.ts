import { endOfLocalDay, startOfLocalDay } from '@billing/clock';
import type { z } from 'zod';
import { clampInstant } from '../validation/iso-date-time.js';
import { filterField } from './filter-fields.js';

export type RangeLookup = 'lt' | 'lte' | 'gt' | 'gte';
export type OrgTzLookup = 'org_tz_lte' | 'org_tz_gte';

/**
 * The `<name>__<lookup>` members of a filter schema, e.g.
 * `rangeFilters('created_date', filterField.datetime)` gives `created_date__lte` and
 * `created_date__gte`. Spread the result into `z.object({...})`.
 */
export function rangeFilters<
  Name extends string,
  Filter extends z.ZodType,
  const Lookup extends RangeLookup | OrgTzLookup = 'lte' | 'gte',
>(name: Name, makeFilter: () => Filter, lookups?: readonly Lookup[]): { [Key in `${Name}__${Lookup}`]: Filter } {
  const names = lookups ?? (['lte', 'gte'] as const);
  return Object.fromEntries(names.map((lookup) => [`${name}__${lookup}`, makeFilter()])) as {
    [Key in `${Name}__${Lookup}`]: Filter;
  };
}

/**
 * `<name>__org_tz_lte` and `<name>__org_tz_gte`: dates (YYYY-MM-DD) meant on the organization's
 * wall clock. They stay dates here; instantRange turns them into instants once the organization's
 * time zone is known.
 */
export function orgTzDateFilters<Name extends string>(name: Name) {
  return rangeFilters(name, filterField.date, ['org_tz_lte', 'org_tz_gte']);
}

export interface InstantRange {
  gt?: Date;
  gte?: Date;
  lt?: Date;
  lte?: Date;
}

/**
 * Collects the bounds the client gave for the instant field `name` into one range:
 * - `__gt/__gte/__lt/__lte` holding Dates (datetime filters) are taken as they are;
 * - ones holding YYYY-MM-DD dates mean whole days in UTC (gte: start of the day, lte: its end);
 * - `__org_tz_gte/__org_tz_lte` mean whole days in `timeZone` (the organization's):
 *   2026-01-15 in Europe/Copenhagen is gte 2026-01-14T23:00:00.000Z, lte 2026-01-15T22:59:59.999Z.
 * When a bound is given both ways, the narrower one wins (both must hold). Bounds are kept within
 * years 1-9999 (clampInstant).
 */
export function instantRange(query: Record<string, unknown>, name: string, timeZone = 'UTC'): InstantRange {
  const bound = (lookup: RangeLookup, endOfDay: boolean): Date | undefined => {
    const value = query[`${name}__${lookup}`];
    if (value instanceof Date) return value;
    if (typeof value === 'string') return endOfDay ? endOfLocalDay(value, 'UTC') : startOfLocalDay(value, 'UTC');
    return undefined;
  };
  const orgTz = (lookup: OrgTzLookup): Date | undefined => {
    const value = query[`${name}__${lookup}`];
    if (typeof value !== 'string') return undefined;
    return lookup === 'org_tz_gte' ? startOfLocalDay(value, timeZone) : endOfLocalDay(value, timeZone);
  };
  const range: InstantRange = {};
  const gt = bound('gt', true);
  const gte = latest(bound('gte', false), orgTz('org_tz_gte'));
  const lt = bound('lt', false);
  const lte = earliest(bound('lte', true), orgTz('org_tz_lte'));
  if (gt) range.gt = clampInstant(gt);
  if (gte) range.gte = clampInstant(gte);
  if (lt) range.lt = clampInstant(lt);
  if (lte) range.lte = clampInstant(lte);
  return range;
}

function latest(a: Date | undefined, b: Date | undefined): Date | undefined {
  if (!a || !b) return a ?? b;
  return a > b ? a : b;
}

function earliest(a: Date | undefined, b: Date | undefined): Date | undefined {
  if (!a || !b) return a ?? b;
  return a < b ? a : b;
}
