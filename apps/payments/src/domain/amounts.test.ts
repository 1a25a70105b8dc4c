import { describe, expect, it } from 'vitest';
import { localDate, toMinorUnits } from './amounts.js';

describe('amounts for gateways', () => {
  it('counts in the minor unit of the currency', () => {
    expect(toMinorUnits('100.50', 'DKK')).toBe(10050n);
    expect(toMinorUnits('125.000000', 'EUR')).toBe(12500n);
    expect(toMinorUnits('1000', 'ISK')).toBe(1000n);
    expect(toMinorUnits('99999999999.99', 'USD')).toBe(9999999999999n);
  });

  it('refuses an amount finer than the minor unit', () => {
    expect(() => toMinorUnits('1.005', 'DKK')).toThrow('1.005 DKK is finer than the currency');
  });

  it('gives the local day in the organization time zone', () => {
    expect(localDate(new Date('2026-01-31T23:30:00Z'), 'Europe/Copenhagen')).toBe('2026-02-01');
    expect(localDate(new Date('2026-01-31T23:30:00Z'), 'UTC')).toBe('2026-01-31');
  });
});
