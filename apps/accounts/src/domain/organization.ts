import type { FieldViolation } from '@billing/errors';
import { COLLECTION_METHODS, isCountryCode, isCurrencyCode, isTimeZone } from '@billing/reference-data';

export interface OrganizationSettings {
  name: string;
  country: string;
  base_currency: string;
  time_zone: string;
  default_payment_terms: number;
  default_collection_method: string;
  rate_limit_per_minute: number;
  features: string[];
  /** The seller's details printed on invoices. */
  address: string;
  zipcode: string;
  city: string;
  vat_number: string;
}

/** gaps.md §10: the defaults of a new organization; 60 requests per minute from the spec's limits. */
export const ORGANIZATION_DEFAULTS: Omit<OrganizationSettings, 'name'> = {
  country: 'DK',
  base_currency: 'DKK',
  time_zone: 'Europe/Copenhagen',
  default_payment_terms: 14,
  default_collection_method: 'invoice',
  rate_limit_per_minute: 60,
  features: [],
  address: '',
  zipcode: '',
  city: '',
  vat_number: '',
};

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
  return violations;
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
  };
}
