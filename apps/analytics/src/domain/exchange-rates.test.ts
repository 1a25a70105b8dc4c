import { describe, expect, it } from 'vitest';
import { localDay, rateOn } from './exchange-rates.js';

const RATES = [
  { currency: 'EUR', rate: '7.45', valid_from: '2025-01-01' },
  { currency: 'EUR', rate: '7.46', valid_from: '2026-02-01' },
  { currency: 'USD', rate: '6.50', valid_from: '2026-01-01' },
];

describe('rateOn', () => {
  it('is 1 for the base currency', () => {
    expect(rateOn(RATES, 'DKK', 'DKK', '2026-01-01')?.toString()).toBe('1');
  });
  it('takes the latest rate valid on the day', () => {
    expect(rateOn(RATES, 'EUR', 'DKK', '2026-01-31')?.toString()).toBe('7.45');
    expect(rateOn(RATES, 'EUR', 'DKK', '2026-02-01')?.toString()).toBe('7.46');
    expect(rateOn(RATES, 'EUR', 'DKK', '2027-05-01')?.toString()).toBe('7.46');
  });
  it('is null before the first rate and for a currency without rates', () => {
    expect(rateOn(RATES, 'USD', 'DKK', '2025-12-31')).toBeNull();
    expect(rateOn(RATES, 'SEK', 'DKK', '2026-06-01')).toBeNull();
  });
});

describe('localDay', () => {
  it('is the calendar day in the time zone', () => {
    expect(localDay(new Date('2026-01-31T23:30:00Z'), 'Europe/Copenhagen')).toBe('2026-02-01');
    expect(localDay(new Date('2026-01-31T23:30:00Z'), 'UTC')).toBe('2026-01-31');
  });
});

describe('localDay with one formatter per time zone', () => {
  it('keeps each zone its own day when zones alternate', () => {
    const moment = new Date('2026-03-31T22:30:00Z');
    expect(localDay(moment, 'Europe/Copenhagen')).toBe('2026-04-01');
    expect(localDay(moment, 'America/New_York')).toBe('2026-03-31');
    expect(localDay(moment, 'Europe/Copenhagen')).toBe('2026-04-01');
    expect(localDay(new Date('2026-04-01T04:30:00Z'), 'America/New_York')).toBe('2026-04-01');
    expect(localDay(new Date('2026-12-31T23:59:59Z'), 'Asia/Tokyo')).toBe('2027-01-01');
  });
  it('still fails for a time zone Intl does not know, every time', () => {
    expect(() => localDay(new Date('2026-01-01T00:00:00Z'), 'Mars/Olympus')).toThrow(RangeError);
    expect(() => localDay(new Date('2026-01-01T00:00:00Z'), 'Mars/Olympus')).toThrow(RangeError);
  });
  it('still fails for an invalid moment', () => {
    expect(() => localDay(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
  });
});
