import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, isCountryCode, isCurrencyCode, isEuCountry, isTimeZone, minorUnits } from './index.js';

describe('reference data', () => {
  it('holds the contract sets', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect([isCountryCode('DK'), isCountryCode('XK'), isCountryCode('dk')]).toEqual([true, false, false]);
    expect([isEuCountry('DE'), isEuCountry('GB'), isEuCountry('NO')]).toEqual([true, false, false]);
    expect([isCurrencyCode('ISK'), isCurrencyCode('JPY')]).toEqual([true, false]);
    expect([minorUnits('ISK'), minorUnits('DKK')]).toEqual([0, 2]);
    expect([isTimeZone('Europe/Copenhagen'), isTimeZone('Mars/Olympus'), isTimeZone('')]).toEqual([true, false, false]);
  });
});
