import { describe, expect, it } from 'vitest';
import { hashApiToken, newApiToken, tokenPrefix } from './api-token.js';
import { ORGANIZATION_DEFAULTS, validateOrganization, validateRateLimit } from './organization.js';

describe('organization settings', () => {
  it('accepts the defaults of gaps.md §10', () => {
    expect(ORGANIZATION_DEFAULTS).toEqual({
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
    });
    expect(validateOrganization({ name: 'Acme', ...ORGANIZATION_DEFAULTS })).toEqual([]);
    expect(validateOrganization({ name: 'Acme', ...ORGANIZATION_DEFAULTS, vat_number: 'X'.repeat(33) })).toEqual([
      { field: 'vat_number', description: 'Ensure this field has no more than 32 characters.' },
    ]);
  });

  it('names each invalid setting', () => {
    const violations = validateOrganization({
      ...ORGANIZATION_DEFAULTS,
      name: ' ',
      country: 'XX',
      base_currency: 'JPY',
      time_zone: 'Nowhere/City',
      rate_limit_per_minute: 0,
    });
    expect(violations.map((v) => v.field)).toEqual([
      'name',
      'country',
      'base_currency',
      'time_zone',
      'rate_limit_per_minute',
    ]);
  });

  it('refuses whole numbers the integer columns cannot hold, naming the field', () => {
    // Without this bound Postgres refuses the insert with an error that names no field.
    expect(
      validateOrganization({
        ...ORGANIZATION_DEFAULTS,
        name: 'Acme',
        default_payment_terms: 2_147_483_648,
        rate_limit_per_minute: 2_147_483_648,
      }),
    ).toEqual([
      { field: 'default_payment_terms', description: 'Ensure this value is less than or equal to 2147483647.' },
      { field: 'rate_limit_per_minute', description: 'Ensure this value is less than or equal to 2147483647.' },
    ]);
    expect(validateRateLimit(2_147_483_647)).toEqual([]);
    expect(validateRateLimit(0)).toEqual([
      { field: 'rate_limit_per_minute', description: 'Ensure this value is greater than or equal to 1.' },
    ]);
  });
});

describe('api tokens', () => {
  it('are 40 random hex characters stored only as a SHA-256', () => {
    const token = newApiToken();
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(newApiToken()).not.toBe(token);
    expect(hashApiToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(tokenPrefix(token)).toBe(token.slice(0, 6));
  });
});
