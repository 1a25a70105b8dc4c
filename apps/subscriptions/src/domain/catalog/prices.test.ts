import { describe, expect, it } from 'vitest';
import { presentPrice, storedPrice } from './prices.js';

describe('prices', () => {
  it('presents a stored price with at least two decimals and no trailing zeros beyond them', () => {
    expect(['100', '100.000000', '9.995000', '0', '0.5', '12.345678', '1200.10'].map(presentPrice)).toEqual([
      '100.00',
      '100.00',
      '9.995',
      '0.00',
      '0.50',
      '12.345678',
      '1200.10',
    ]);
  });

  it('stores the validated text as the exact decimal, without notation or padding', () => {
    expect(['100.00', '9.9950', '0.000001', '007.5', '1e3'].map(storedPrice)).toEqual([
      '100',
      '9.995',
      '0.000001',
      '7.5',
      '1000',
    ]);
  });
});
