import { describe, expect, it } from 'vitest';
import { validateExchangeRate, withExchangeRate } from './exchange-rate.js';

describe('validateExchangeRate', () => {
  it('takes a supported currency other than the base, a positive rate and a calendar date', () => {
    expect(validateExchangeRate({ currency: 'EUR', rate: '7.46', valid_from: '2026-01-01' }, 'DKK')).toEqual([]);
  });
  it('names each wrong option', () => {
    expect(validateExchangeRate({ currency: 'DKK', rate: '0', valid_from: '2026-02-30' }, 'DKK')).toEqual([
      { field: 'currency', description: 'DKK is the base currency: its rate is always 1.' },
      { field: 'rate', description: 'Enter a positive decimal with at most 10 digits before and 10 after the point.' },
      { field: 'from', description: 'Enter a date as YYYY-MM-DD.' },
    ]);
    expect(
      validateExchangeRate({ currency: 'XYZ', rate: '1e3', valid_from: '2026-01-01' }, 'DKK').map((v) => v.field),
    ).toEqual(['currency', 'rate']);
  });
});

describe('withExchangeRate', () => {
  it('adds a rate, replacing the one of the same currency and day, in order', () => {
    const rates = [
      { currency: 'EUR', rate: '7.45', valid_from: '2026-01-01' },
      { currency: 'SEK', rate: '0.65', valid_from: '2026-01-01' },
    ];
    expect(withExchangeRate(rates, { currency: 'EUR', rate: '7.46', valid_from: '2026-02-01' })).toEqual([
      { currency: 'EUR', rate: '7.45', valid_from: '2026-01-01' },
      { currency: 'EUR', rate: '7.46', valid_from: '2026-02-01' },
      { currency: 'SEK', rate: '0.65', valid_from: '2026-01-01' },
    ]);
    expect(withExchangeRate(rates, { currency: 'EUR', rate: '7.5', valid_from: '2026-01-01' })).toEqual([
      { currency: 'EUR', rate: '7.5', valid_from: '2026-01-01' },
      { currency: 'SEK', rate: '0.65', valid_from: '2026-01-01' },
    ]);
  });
});
