import { describe, expect, it } from 'vitest';
import { formatNumber, unitPrice } from './number-format.js';

describe('formatNumber', () => {
  it('groups thousands and writes the decimal mark of the language', () => {
    expect(formatNumber('1234.56', 'da')).toBe('1.234,56');
    expect(formatNumber('1234.56', 'en')).toBe('1,234.56');
    expect(formatNumber('-1234567.5', 'da')).toBe('-1.234.567,5');
    expect(formatNumber('999.99', 'da')).toBe('999,99');
    expect(formatNumber('1000', 'en')).toBe('1,000');
    expect(formatNumber('0.00', 'da')).toBe('0,00');
  });

  it('keeps every digit of long amounts (no JS number on the way)', () => {
    expect(formatNumber('12345678901234567.89', 'en')).toBe('12,345,678,901,234,567.89');
  });

  it('leaves text that is not a plain decimal as it is', () => {
    expect(formatNumber('', 'da')).toBe('');
    expect(formatNumber('n/a', 'da')).toBe('n/a');
  });
});

describe('unitPrice', () => {
  it("shows at least the currency's decimals and every exact digit beyond", () => {
    expect(unitPrice('100', 'DKK')).toBe('100.00');
    expect(unitPrice('100.5', 'EUR')).toBe('100.50');
    expect(unitPrice('29.997', 'DKK')).toBe('29.997');
    expect(unitPrice('-40', 'EUR')).toBe('-40.00');
    expect(unitPrice('1499', 'ISK')).toBe('1499');
    expect(unitPrice('1499.5', 'ISK')).toBe('1499.5');
  });
});
