import { EU_COUNTRY_CODES } from '@billing/reference-data';
import { describe, expect, it } from 'vitest';
import { isValidVatNumberFormat, normalizeVatNumber, vatNumberPrefix } from './index.js';

/** Per member state: numbers of its format, and numbers that miss it (length, letters, places). */
const CASES: Record<string, { valid: string[]; invalid: string[] }> = {
  AT: { valid: ['ATU12345678', 'U12345678'], invalid: ['ATU1234567', 'AT12345678', 'ATU123456789'] },
  BE: { valid: ['BE0123456789', 'BE1123456789', '0123456789'], invalid: ['BE2123456789', 'BE12345678'] },
  BG: { valid: ['BG123456789', 'BG1234567890'], invalid: ['BG12345678', 'BG12345678901'] },
  CY: { valid: ['CY12345678X', '12345678L'], invalid: ['CY123456789', 'CY1234567X'] },
  CZ: { valid: ['CZ12345678', 'CZ123456789', 'CZ1234567890'], invalid: ['CZ1234567', 'CZ123'] },
  DE: { valid: ['DE123456789', '123456789'], invalid: ['DE12345678', 'DE1234567890', 'DE12345678X'] },
  DK: { valid: ['DK12345678', '12345678'], invalid: ['DK1234567', 'DK123456789'] },
  EE: { valid: ['EE100123456'], invalid: ['EE10012345', 'EE1001234567', 'EE123456789'] },
  ES: {
    valid: ['ESX1234567X', 'ESA12345678', 'ES12345678Z', 'B12345678'],
    invalid: ['ES123456789', 'ESX123456X', 'ESXX1234567'],
  },
  FI: { valid: ['FI12345678'], invalid: ['FI123456789', 'FI1234567'] },
  FR: {
    valid: ['FR12345678901', 'FRXX123456789', 'FRAB123456789', 'AB123456789'],
    invalid: ['FRIO123456789', 'FR1234567890', 'FR123456789012'],
  },
  GR: { valid: ['EL123456789', '123456789'], invalid: ['GR123456789', 'EL12345678', 'EL1234567890'] },
  HR: { valid: ['HR12345678901'], invalid: ['HR1234567890', 'HR123456789012'] },
  HU: { valid: ['HU12345678'], invalid: ['HU123456789', 'HU1234567'] },
  IE: {
    valid: ['IE1234567T', 'IE1234567TW', 'IE1A23456T', 'IE1+23456T'],
    invalid: ['IE1234567', 'IE12345678T', 'IE1234567TX'],
  },
  IT: { valid: ['IT12345678901'], invalid: ['IT1234567890', 'IT123456789012'] },
  LT: { valid: ['LT123456789', 'LT123456789012'], invalid: ['LT1234567890', 'LT12345678'] },
  LU: { valid: ['LU12345678'], invalid: ['LU1234567', 'LU123456789'] },
  LV: { valid: ['LV12345678901'], invalid: ['LV1234567890'] },
  MT: { valid: ['MT12345678'], invalid: ['MT1234567', 'MT123456789'] },
  NL: { valid: ['NL123456789B01', 'NL123456789B12'], invalid: ['NL123456789A01', 'NL123456789B1', 'NL12345678B01'] },
  PL: { valid: ['PL1234567890'], invalid: ['PL123456789', 'PL12345678901'] },
  PT: { valid: ['PT123456789'], invalid: ['PT12345678', 'PT1234567890'] },
  RO: { valid: ['RO12', 'RO1234567890'], invalid: ['RO0123', 'RO1', 'RO12345678901'] },
  SE: { valid: ['SE123456789001', '556677889901'], invalid: ['SE123456789002', 'SE12345678901'] },
  SI: { valid: ['SI12345678'], invalid: ['SI01234567', 'SI123456789'] },
  SK: { valid: ['SK1234567890'], invalid: ['SK123456789', 'SK12345678901'] },
};

describe('isValidVatNumberFormat', () => {
  it('has a format for every member state', () => {
    expect(Object.keys(CASES).sort()).toEqual([...EU_COUNTRY_CODES].sort());
  });

  for (const [country, { valid, invalid }] of Object.entries(CASES)) {
    it(`${country}: accepts ${valid.join(', ')}; refuses ${invalid.join(', ')}`, () => {
      for (const number of valid) expect(isValidVatNumberFormat(number, country), number).toBe(true);
      for (const number of invalid) expect(isValidVatNumberFormat(number, country), number).toBe(false);
    });
  }

  it('ignores case, spaces, dots and dashes', () => {
    expect(isValidVatNumberFormat('dk 12 34 56 78', 'DK')).toBe(true);
    expect(isValidVatNumberFormat('DE-123.456.789', 'DE')).toBe(true);
    expect(isValidVatNumberFormat('nl123456789b01', 'NL')).toBe(true);
    expect(normalizeVatNumber(' atu 1234-5678. ')).toBe('ATU12345678');
  });

  it("refuses another member state's prefix", () => {
    expect(isValidVatNumberFormat('DK12345678', 'DE')).toBe(false);
    expect(isValidVatNumberFormat('DE123456789', 'DK')).toBe(false);
    expect(isValidVatNumberFormat('SE12345678', 'DK')).toBe(false);
  });

  it('refuses every number for a country outside the EU, and empty text', () => {
    expect(isValidVatNumberFormat('NO123456789MVA', 'NO')).toBe(false);
    expect(isValidVatNumberFormat('GB123456789', 'GB')).toBe(false);
    expect(isValidVatNumberFormat('123456789', 'US')).toBe(false);
    expect(isValidVatNumberFormat('', 'DK')).toBe(false);
    expect(isValidVatNumberFormat('DK', 'DK')).toBe(false);
  });

  it('knows the Greek prefix EL', () => {
    expect(vatNumberPrefix('GR')).toBe('EL');
    expect(vatNumberPrefix('DK')).toBe('DK');
  });
});
