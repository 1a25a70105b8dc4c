import { describe, expect, it } from 'vitest';
import { baseConversion, type OrganizationMoney } from './base-currency.js';

const DANISH: OrganizationMoney = {
  base_currency: 'DKK',
  time_zone: 'Europe/Copenhagen',
  exchange_rates: [
    { currency: 'EUR', rate: '7.45', valid_from: '2026-01-01' },
    { currency: 'EUR', rate: '7.46', valid_from: '2026-02-01' },
  ],
};

const rateOf = (organization: OrganizationMoney | null, currency: string, heldSince: string) => {
  const conversion = baseConversion(organization, currency, new Date(heldSince));
  return conversion && [conversion.currency, conversion.rate?.toString() ?? null];
};

describe('baseConversion', () => {
  it('takes the rate in force on the day the period started, in the organization’s time zone', () => {
    expect(rateOf(DANISH, 'EUR', '2026-01-31T22:59:59Z')).toEqual(['DKK', '7.45']);
    // 23:00 UTC on 31 January is already 1 February in Copenhagen.
    expect(rateOf(DANISH, 'EUR', '2026-01-31T23:00:00Z')).toEqual(['DKK', '7.46']);
  });

  it('is 1 for the base currency and no rate for a currency without one', () => {
    expect(rateOf(DANISH, 'DKK', '2026-01-15T09:00:00Z')).toEqual(['DKK', '1']);
    expect(rateOf(DANISH, 'USD', '2026-01-15T09:00:00Z')).toEqual(['DKK', null]);
    expect(rateOf(DANISH, 'EUR', '2025-12-31T12:00:00Z')).toEqual(['DKK', null]);
  });

  it('is none while the organization’s settings are not known', () => {
    expect(rateOf(null, 'EUR', '2026-01-15T09:00:00Z')).toBeNull();
  });
});
