import { describe, expect, it } from 'vitest';
import { vatBillingPeriod } from './vat-billing-period.js';

const ORGANIZATION = '0b9f3c52-52a4-4c1e-9c41-7d3c2f5b8a10';

describe('vatBillingPeriod', () => {
  it('names the month and gives it a uuid of the organization and month, the same on every call', () => {
    // The uuid is SHA-256 of "<organization>:vat-period:<month>" with version 5 and the RFC 4122 variant.
    expect(vatBillingPeriod(ORGANIZATION, '2026-01')).toEqual({
      uuid: '40fdfa02-3eb5-50aa-bca2-226f8960ca22',
      display_name: 'January 2026',
    });
    expect(vatBillingPeriod(ORGANIZATION, '2026-12')).toEqual({
      uuid: 'dc1044de-c518-5bf6-9ab4-fd70d34a695f',
      display_name: 'December 2026',
    });
    expect(vatBillingPeriod('7d2b2c8e-4f5a-4b8c-9d1e-2f3a4b5c6d7e', '2026-01').uuid).not.toBe(
      '40fdfa02-3eb5-50aa-bca2-226f8960ca22',
    );
  });
});
