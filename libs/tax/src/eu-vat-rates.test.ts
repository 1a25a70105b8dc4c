import { EU_COUNTRY_CODES } from '@billing/reference-data';
import { describe, expect, it } from 'vitest';
import { EU_STANDARD_VAT_RATES, EU_VAT_RATES_SOURCE, standardVatRate } from './index.js';

describe('EU standard VAT rates', () => {
  it('covers exactly the 27 member states of reference-data', () => {
    expect(Object.keys(EU_STANDARD_VAT_RATES).sort()).toEqual([...EU_COUNTRY_CODES].sort());
    expect(Object.keys(EU_STANDARD_VAT_RATES)).toHaveLength(27);
  });

  it('holds the published rates valid on 2026-01-01', () => {
    expect(EU_VAT_RATES_SOURCE.validOn).toBe('2026-01-01');
    expect(EU_STANDARD_VAT_RATES).toEqual({
      AT: '20',
      BE: '21',
      BG: '20',
      CY: '19',
      CZ: '21',
      DE: '19',
      DK: '25',
      EE: '24',
      ES: '21',
      FI: '25.5',
      FR: '20',
      GR: '24',
      HR: '25',
      HU: '27',
      IE: '23',
      IT: '22',
      LT: '21',
      LU: '17',
      LV: '21',
      MT: '18',
      NL: '21',
      PL: '23',
      PT: '23',
      RO: '21',
      SE: '25',
      SI: '22',
      SK: '23',
    });
  });

  it('answers a member state with its rate and any other country with null', () => {
    expect(standardVatRate('DK')).toBe('25');
    expect(standardVatRate('DE')).toBe('19');
    expect(standardVatRate('FI')).toBe('25.5');
    expect(standardVatRate('GR')).toBe('24');
    expect(standardVatRate('US')).toBeNull();
    expect(standardVatRate('NO')).toBeNull();
    expect(standardVatRate('GB')).toBeNull();
    expect(standardVatRate('EL')).toBeNull(); // a VAT prefix, not a country code
  });
});
