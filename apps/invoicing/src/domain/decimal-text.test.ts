import { describe, expect, it } from 'vitest';
import { presentAmount, presentDecimal, presentExact, storedDecimal } from './decimal-text.js';

describe('presentAmount', () => {
  it("writes a stored amount with the currency's decimals, never a negative zero", () => {
    expect(presentAmount('100.000000', 2)).toBe('100.00');
    expect(presentAmount('-12.340000', 2)).toBe('-12.34');
    expect(presentAmount('-0.000000', 2)).toBe('0.00');
    expect(presentAmount('1499.000000', 0)).toBe('1499');
    expect(presentAmount('25', 2)).toBe('25.00');
  });
});

describe('presentExact', () => {
  it('drops trailing zeros and keeps every other digit', () => {
    expect(presentExact('100.000000000000')).toBe('100');
    expect(presentExact('29.997000')).toBe('29.997');
    expect(presentExact('2.5')).toBe('2.5');
    expect(presentExact('7')).toBe('7');
  });
});

describe('presentDecimal and storedDecimal', () => {
  it('show at least two decimals and store the exact value without trailing zeros', () => {
    expect(presentDecimal('2')).toBe('2.00');
    expect(presentDecimal('9.995000')).toBe('9.995');
    expect(presentDecimal('-10.500000')).toBe('-10.50');
    expect(storedDecimal('10.50')).toBe('10.5');
    expect(storedDecimal('0.000')).toBe('0');
  });
});
