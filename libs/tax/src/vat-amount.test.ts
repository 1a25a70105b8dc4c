import { money } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { formatVatRate, vatAmount } from './index.js';

describe('vatAmount', () => {
  it('is subtotal × rate / 100 rounded half-up to the minor unit', () => {
    expect(vatAmount('200.00', '25', 'DKK').toFixed(2)).toBe('50.00');
    expect(vatAmount('99.99', '25', 'DKK').toFixed(2)).toBe('25.00'); // 24.9975
    expect(vatAmount('10.02', '25', 'EUR').toFixed(2)).toBe('2.51'); // 2.505
    expect(vatAmount('10.01', '25', 'EUR').toFixed(2)).toBe('2.50'); // 2.5025
    expect(vatAmount('100.00', '25.5', 'EUR').toFixed(2)).toBe('25.50');
    expect(vatAmount(money('89.99'), money('19'), 'EUR').toFixed(2)).toBe('17.10'); // 17.0981
  });

  it('rounds ISK to whole krónur', () => {
    expect(vatAmount('1499', '24', 'ISK').toFixed()).toBe('360'); // 359.76
    expect(vatAmount('1250', '25', 'ISK').toFixed()).toBe('313'); // 312.5
  });

  it('gives 0 at rate 0 and mirrors credits', () => {
    expect(vatAmount('200.00', '0', 'DKK').toFixed(2)).toBe('0.00');
    expect(vatAmount('-10.02', '25', 'EUR').toFixed(2)).toBe('-2.51');
    expect(vatAmount('-0.02', '25', 'DKK').toFixed(2)).toBe('-0.01'); // -0.005: half away from zero
    expect(vatAmount('-0.01', '25', 'DKK').toFixed(2)).toBe('0.00'); // -0.0025
    expect(vatAmount('-0.01', '25', 'DKK').isNegative()).toBe(false); // never a negative zero
  });

  it('refuses rates outside 0–100 and non-decimal text', () => {
    expect(() => vatAmount('1', '-1', 'DKK')).toThrow(RangeError);
    expect(() => vatAmount('1', '100.01', 'DKK')).toThrow(RangeError);
    expect(() => vatAmount('1', '25%', 'DKK')).toThrow();
    expect(() => vatAmount('1e3', '25', 'DKK')).toThrow();
  });
});

describe('formatVatRate', () => {
  it('writes at least two decimals', () => {
    expect(formatVatRate('25')).toBe('25.00');
    expect(formatVatRate('25.5')).toBe('25.50');
    expect(formatVatRate('0')).toBe('0.00');
    expect(formatVatRate('8.125')).toBe('8.125');
  });
});
