import { describe, expect, it } from 'vitest';
import { creditToApply } from './credit.js';

describe('creditToApply', () => {
  it('is the smaller of the credit left and what the invoice owes', () => {
    expect(creditToApply('-250.00', '100.00').toFixed(2)).toBe('100.00');
    expect(creditToApply('-80.50', '100.00').toFixed(2)).toBe('80.50');
    expect(creditToApply('-100.00', '100.00').toFixed(2)).toBe('100.00');
  });

  it('is zero when the credit note has no credit left or the invoice owes nothing', () => {
    expect(creditToApply('0.00', '100.00').toFixed(2)).toBe('0.00');
    expect(creditToApply('-50.00', '0.00').toFixed(2)).toBe('0.00');
    expect(creditToApply('-50.00', '-10.00').toFixed(2)).toBe('0.00');
  });
});
