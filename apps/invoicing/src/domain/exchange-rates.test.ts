import { describe, expect, it } from 'vitest';
import { exchangeRateOn } from './exchange-rates.js';

const rates = [
  { currency: 'EUR', rate: '7.4500', valid_from: '2026-01-01' },
  { currency: 'USD', rate: '6.80', valid_from: '2026-01-01' },
  { currency: 'EUR', rate: '7.4604', valid_from: '2026-02-01' },
];

describe('exchangeRateOn', () => {
  it('takes the rate with the latest valid_from on or before the day', () => {
    expect(exchangeRateOn(rates, 'EUR', '2026-01-31')).toBe('7.4500');
    expect(exchangeRateOn(rates, 'EUR', '2026-02-01')).toBe('7.4604');
    expect(exchangeRateOn(rates, 'EUR', '2027-06-30')).toBe('7.4604');
    expect(exchangeRateOn(rates, 'USD', '2026-03-01')).toBe('6.80');
  });

  it('has none before the first rate of the currency, nor for a currency without rates', () => {
    expect(exchangeRateOn(rates, 'EUR', '2025-12-31')).toBeNull();
    expect(exchangeRateOn(rates, 'SEK', '2026-03-01')).toBeNull();
    expect(exchangeRateOn([], 'EUR', '2026-03-01')).toBeNull();
  });
});
