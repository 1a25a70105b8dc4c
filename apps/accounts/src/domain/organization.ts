import type { FieldViolation } from '@billing/errors';
import {
  COLLECTION_METHODS,
  DEFAULT_ORGANIZATION_FEATURES,
  isCountryCode,
  isCurrencyCode,
  isOrganizationFeature,
  isTimeZone,
  ORGANIZATION_FEATURES,
  type OrganizationFeature,
} from '@billing/reference-data';
import { z } from 'zod';

export interface OrganizationSettings {
  name: string;
  country: string;
  base_currency: string;
  time_zone: string;
  default_payment_terms: number;
  default_collection_method: string;
  rate_limit_per_minute: number;
  /** The names of the feature flags that are on (gaps.md §10), in ORGANIZATION_FEATURES order. */
  features: string[];
  /** The seller's details printed on invoices. */
  address: string;
  zipcode: string;
  city: string;
  vat_number: string;
  /** Printed on invoices and the Reply-To of invoice e-mails ('' when not given). */
  email: string;
  /**
   * gaps.md §11: the days after the first payment attempt on which a declined card payment is
   * tried again, ascending; empty: never retried.
   */
  dunning_schedule_days: number[];
  /**
   * The days after an invoice's due date on which a payment reminder is mailed while it is open
   * (collection method invoice), ascending; empty: no reminders (docs/api.md "Payment reminders").
   */
  reminder_schedule_days: number[];
  /** The fee each reminder adds to the account as a draft line (decimal text); '' for none. */
  reminder_fee: string;
}

/** gaps.md §10: the defaults of a new organization; 60 requests per minute from the spec's limits. */
export const ORGANIZATION_DEFAULTS: Omit<OrganizationSettings, 'name'> = {
  country: 'DK',
  base_currency: 'DKK',
  time_zone: 'Europe/Copenhagen',
  default_payment_terms: 14,
  default_collection_method: 'invoice',
  rate_limit_per_minute: 60,
  features: [...DEFAULT_ORGANIZATION_FEATURES],
  address: '',
  zipcode: '',
  city: '',
  vat_number: '',
  email: '',
  dunning_schedule_days: [1, 3, 7],
  reminder_schedule_days: [3, 10, 20],
  reminder_fee: '',
};

/** A dunning schedule longer than a year or with more retries than this is a typo, not a plan. */
const MAX_DUNNING_DAY = 365;
const MAX_DUNNING_RETRIES = 10;

/** The dunning schedule's problem, if any: whole days from 1 to 365, strictly ascending, at most 10. */
export function dunningScheduleViolation(days: readonly number[]): string | undefined {
  if (days.length > MAX_DUNNING_RETRIES) return `Ensure there are no more than ${MAX_DUNNING_RETRIES} retries.`;
  return dayListViolation(days);
}

/** A reminder schedule longer than a year or with more reminders than this is a typo, not a plan. */
const MAX_REMINDERS = 10;

/** The reminder schedule's problem, if any: whole days from 1 to 365, strictly ascending, at most 10. */
export function reminderScheduleViolation(days: readonly number[]): string | undefined {
  if (days.length > MAX_REMINDERS) return `Ensure there are no more than ${MAX_REMINDERS} reminders.`;
  return dayListViolation(days);
}

/** The reminder fee's problem, if any: '' (none) or a positive amount with at most 2 decimals. */
export function reminderFeeViolation(fee: string): string | undefined {
  if (fee === '') return undefined;
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(fee) || /^0+(\.0+)?$/.test(fee)) {
    return 'Enter a positive amount with at most 2 decimals, e.g. 100.00 (or none).';
  }
  return undefined;
}

function dayListViolation(days: readonly number[]): string | undefined {
  for (const [index, day] of days.entries()) {
    if (!Number.isInteger(day) || day < 1 || day > MAX_DUNNING_DAY) {
      return `Each day must be a whole number from 1 to ${MAX_DUNNING_DAY}; got ${day}.`;
    }
    if (index > 0 && day <= days[index - 1]!) return 'The days must be in ascending order, each once.';
  }
  return undefined;
}

export function validateOrganization(settings: OrganizationSettings): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const bad = (field: string, description: string) => violations.push({ field, description });
  if (!settings.name.trim()) bad('name', 'This field may not be blank.');
  if (settings.name.length > 256) bad('name', 'Ensure this field has no more than 256 characters.');
  if (!isCountryCode(settings.country)) bad('country', `"${settings.country}" is not a valid choice.`);
  if (!isCurrencyCode(settings.base_currency))
    bad('base_currency', `"${settings.base_currency}" is not a valid choice.`);
  if (!isTimeZone(settings.time_zone)) bad('time_zone', `"${settings.time_zone}" is not a valid time zone.`);
  const terms = integerViolation(settings.default_payment_terms, 0);
  if (terms) bad('default_payment_terms', terms);
  if (!(COLLECTION_METHODS as readonly string[]).includes(settings.default_collection_method)) {
    bad('default_collection_method', `"${settings.default_collection_method}" is not a valid choice.`);
  }
  violations.push(...validateRateLimit(settings.rate_limit_per_minute));
  for (const [field, max] of [
    ['address', 256],
    ['zipcode', 32],
    ['city', 128],
    ['vat_number', 32],
  ] as const) {
    if (settings[field].length > max) bad(field, `Ensure this field has no more than ${max} characters.`);
  }
  if (settings.email.length > 254) bad('email', 'Ensure this field has no more than 254 characters.');
  else if (settings.email !== '' && !z.email().safeParse(settings.email).success) {
    bad('email', 'Enter a valid email address.');
  }
  const dunning = dunningScheduleViolation(settings.dunning_schedule_days);
  if (dunning) bad('dunning_schedule_days', dunning);
  const reminders = reminderScheduleViolation(settings.reminder_schedule_days);
  if (reminders) bad('reminder_schedule_days', reminders);
  const fee = reminderFeeViolation(settings.reminder_fee);
  if (fee) bad('reminder_fee', fee);
  for (const name of settings.features) {
    if (!isOrganizationFeature(name)) {
      bad('features', `"${name}" is not a feature; one of ${ORGANIZATION_FEATURES.join(', ')}.`);
    }
  }
  return violations;
}

/** Each feature flag and whether it is on, as the admin command line shows them. */
export function featureFlags(features: readonly string[]): Record<OrganizationFeature, boolean> {
  return Object.fromEntries(ORGANIZATION_FEATURES.map((name) => [name, features.includes(name)])) as Record<
    OrganizationFeature,
    boolean
  >;
}

/**
 * gaps.md §11: every recipient has self-service access while the organization's self_service
 * feature is on (the default), none while it is off.
 */
export const recipientsHaveSelfService = (features: readonly string[]): boolean => features.includes('self_service');

/** `features` with each flag of `switches` turned on or off; unknown names are kept for validation to name. */
export function switchFeatures(features: readonly string[], switches: Readonly<Record<string, boolean>>): string[] {
  const on = new Set(features);
  for (const [name, enabled] of Object.entries(switches)) {
    if (enabled) on.add(name);
    else on.delete(name);
  }
  // The contract's order first, then anything unknown (refused by validateOrganization).
  return [...ORGANIZATION_FEATURES.filter((name) => on.has(name)), ...[...on].filter((n) => !isOrganizationFeature(n))];
}

/**
 * Settings fixed when the organization is created, with why (docs/api.md "Organizations"): the
 * base currency (draft lines default to it and MRR is counted in it), the time zone (every stored
 * local day, renewal and invoice date was computed in it) and test mode (an organization on its
 * own clock never joins real time, nor the other way round).
 */
export const FIXED_SETTINGS = {
  base_currency:
    'The base currency cannot change: MRR and draft line defaults of the organization are in it. Create a new organization instead.',
  time_zone:
    "The time zone cannot change: the organization's renewal times and invoice dates were computed in it. Create a new organization instead.",
  test_clock: 'Test mode is chosen when the organization is created and cannot change.',
} as const;

/** The settings update-org may change; `features` as flags to switch (others keep their state). */
export type OrganizationChanges = Partial<
  Omit<OrganizationSettings, 'base_currency' | 'time_zone' | 'features'> & { features: Record<string, boolean> }
>;

export interface OrganizationUpdate {
  settings: OrganizationSettings;
  /** Each setting that changed, with its value before and after (for the audit log). */
  changed: Record<string, { from: unknown; to: unknown }>;
  violations: FieldViolation[];
}

/** Applies `changes` to `current`: the new settings, what changed and what is invalid. */
export function updateOrganizationSettings(
  current: OrganizationSettings,
  changes: OrganizationChanges,
): OrganizationUpdate {
  const { features: switches, ...values } = changes;
  const settings: OrganizationSettings = {
    ...current,
    ...values,
    features: switches ? switchFeatures(current.features, switches) : [...current.features],
  };
  const changed: OrganizationUpdate['changed'] = {};
  for (const key of Object.keys(settings) as Array<keyof OrganizationSettings>) {
    if (JSON.stringify(settings[key]) !== JSON.stringify(current[key])) {
      changed[key] = { from: current[key], to: settings[key] };
    }
  }
  return { settings, changed, violations: validateOrganization(settings) };
}

/** Both are Postgres `integer` columns: a larger value would fail in the database, unnamed. */
const MAX_INTEGER = 2_147_483_647;

function integerViolation(value: number, min: number): string | undefined {
  if (!Number.isInteger(value) || value < min) return `Ensure this value is greater than or equal to ${min}.`;
  if (value > MAX_INTEGER) return `Ensure this value is less than or equal to ${MAX_INTEGER}.`;
  return undefined;
}

export function validateRateLimit(perMinute: number): FieldViolation[] {
  const problem = integerViolation(perMinute, 1);
  return problem ? [{ field: 'rate_limit_per_minute', description: problem }] : [];
}

/** An organization's identity and settings, as every reader of it (gRPC, admin CLI) shows them. */
export function organizationSettingsOf(
  organization: OrganizationSettings & { id: string },
): Omit<OrganizationSettings, 'features'> & { id: string } {
  return {
    id: organization.id,
    name: organization.name,
    country: organization.country,
    base_currency: organization.base_currency,
    time_zone: organization.time_zone,
    default_payment_terms: organization.default_payment_terms,
    default_collection_method: organization.default_collection_method,
    rate_limit_per_minute: organization.rate_limit_per_minute,
    address: organization.address,
    zipcode: organization.zipcode,
    city: organization.city,
    vat_number: organization.vat_number,
    email: organization.email,
    dunning_schedule_days: [...organization.dunning_schedule_days],
    reminder_schedule_days: [...organization.reminder_schedule_days],
    reminder_fee: organization.reminder_fee,
  };
}
