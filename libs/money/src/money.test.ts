import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  currencyDecimals,
  formatAmount,
  formatExact,
  InvalidAmountError,
  isDecimalString,
  money,
  parseAmount,
  roundToMinorUnit,
  sum,
} from './index.js';

describe('money()', () => {
  it('accepts plain decimal strings and Decimals', () => {
    expect(money('100').toFixed()).toBe('100');
    expect(money('100.50').toFixed(2)).toBe('100.50');
    expect(money('-0.005').toFixed()).toBe('-0.005');
    expect(money(new Decimal('12.345')).toFixed()).toBe('12.345');
    expect(money('0.1').plus(money('0.2')).toFixed()).toBe('0.3');
    expect(money('1') instanceof Decimal).toBe(true);
  });

  it('refuses anything that is not plain decimal notation', () => {
    for (const bad of ['', ' 1', '1 ', '1e3', '+1', '01', '1.', '.5', 'NaN', 'Infinity', '1,5', '--1', 'abc']) {
      expect(isDecimalString(bad), bad).toBe(false);
      expect(() => money(bad), bad).toThrow(InvalidAmountError);
      expect(parseAmount(bad), bad).toBeNull();
    }
    expect(() => money(new Decimal(Number.NaN))).toThrow(InvalidAmountError);
    expect(() => money(new Decimal(Number.POSITIVE_INFINITY))).toThrow(InvalidAmountError);
    expect(parseAmount('7.25')?.toFixed()).toBe('7.25');
  });

  it('keeps 40 significant digits, so large products stay exact', () => {
    const product = money('99999999999999999999.12345678').times(36500).times(2147483647);
    expect(product.toFixed()).toBe('7838315311549999999931293778574386.59809');
    expect(product.toFixed().includes('e')).toBe(false);
  });
});

describe('roundToMinorUnit and formatAmount', () => {
  it('knows the minor units', () => {
    expect(currencyDecimals('DKK')).toBe(2);
    expect(currencyDecimals('EUR')).toBe(2);
    expect(currencyDecimals('ISK')).toBe(0);
    expect(() => currencyDecimals('XXX' as never)).toThrow(RangeError);
  });

  it('rounds half-up at .005', () => {
    expect(formatAmount(money('0.005'), 'DKK')).toBe('0.01');
    expect(formatAmount(money('0.004'), 'DKK')).toBe('0.00');
    expect(formatAmount(money('0.0049999'), 'DKK')).toBe('0.00');
    expect(formatAmount(money('1.015'), 'EUR')).toBe('1.02');
    expect(formatAmount(money('2.675'), 'USD')).toBe('2.68'); // a float would give 2.67
    expect(formatAmount(money('128.5714285714'), 'DKK')).toBe('128.57');
    expect(formatAmount(money('192.8571428571'), 'DKK')).toBe('192.86');
  });

  it('rounds negative amounts half away from zero, without negative zero', () => {
    expect(formatAmount(money('-0.005'), 'DKK')).toBe('-0.01');
    expect(formatAmount(money('-0.004'), 'DKK')).toBe('0.00');
    expect(formatAmount(money('-128.5714285714'), 'DKK')).toBe('-128.57');
    expect(formatAmount(money('-1.5'), 'ISK')).toBe('-2');
    expect(formatAmount(money('-0.4'), 'ISK')).toBe('0');
    expect(roundToMinorUnit(money('-0.001'), 'DKK').isNegative()).toBe(false);
  });

  it('writes exactly the minor-unit decimals', () => {
    expect(formatAmount(money('200'), 'DKK')).toBe('200.00');
    expect(formatAmount(money('200.1'), 'DKK')).toBe('200.10');
    expect(formatAmount(money('0'), 'EUR')).toBe('0.00');
    expect(formatAmount(money('1500'), 'ISK')).toBe('1500');
    expect(formatAmount(money('1499.5'), 'ISK')).toBe('1500');
    expect(formatAmount(money('1499.49'), 'ISK')).toBe('1499');
    expect(formatAmount(money('12345678901234567890.125'), 'DKK')).toBe('12345678901234567890.13');
  });

  it('returns rounded Decimals', () => {
    expect(roundToMinorUnit(money('10.125'), 'SEK').toFixed()).toBe('10.13');
    expect(roundToMinorUnit(money('10.5'), 'ISK').toFixed()).toBe('11');
  });
});

describe('formatExact and sum', () => {
  it('writes exact amounts plainly', () => {
    expect(formatExact(money('29.9970'))).toBe('29.997');
    expect(formatExact(money('-0'))).toBe('0');
    expect(formatExact(money('100.00'))).toBe('100');
    expect(formatExact(money('0.00000001'))).toBe('0.00000001');
  });

  it('sums exactly', () => {
    expect(sum([]).toFixed()).toBe('0');
    expect(sum([money('-128.57'), money('192.86')]).toFixed(2)).toBe('64.29');
    expect(sum([money('0.1'), money('0.2'), money('0.3')]).toFixed()).toBe('0.6');
  });
});
