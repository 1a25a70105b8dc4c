import { describe, expect, it } from 'vitest';
import { type DraftLinePricing, draftLineAmounts } from './amounts.js';

const line = (overrides: Partial<DraftLinePricing>): DraftLinePricing => ({
  price: '100',
  quantity: '1',
  discount_percentage: null,
  discount_fixed_per_quantity: null,
  discount_fixed_total: null,
  currency: 'DKK',
  ...overrides,
});

/** The amounts as text, so a test compares exact values (never floats). */
const amounts = (overrides: Partial<DraftLinePricing>) => {
  const result = draftLineAmounts(line(overrides));
  return {
    unit_price_after_discount: result.unit_price_after_discount.toFixed(),
    subtotal: result.subtotal.toFixed(),
    discount: result.discount.toFixed(),
  };
};

describe('draftLineAmounts', () => {
  it('without a discount: price × quantity, rounded half-up once', () => {
    expect(amounts({ price: '19.995', quantity: '3' })).toEqual({
      unit_price_after_discount: '19.995',
      subtotal: '59.99', // 59.985 → 59.99
      discount: '0',
    });
    expect(amounts({ price: '-250', quantity: '2' })).toEqual({
      unit_price_after_discount: '-250',
      subtotal: '-500',
      discount: '0',
    });
  });

  it('with a percentage', () => {
    expect(amounts({ price: '100', quantity: '3', discount_percentage: '12.5' })).toEqual({
      unit_price_after_discount: '87.5',
      subtotal: '262.5',
      discount: '37.5',
    });
    // 3 × 33.33 = 99.99; 15% = 14.9985 → 15.00; 99.99 − 14.9985 = 84.9915 → 84.99
    expect(amounts({ price: '33.33', quantity: '3', discount_percentage: '15' })).toEqual({
      unit_price_after_discount: '28.3305',
      subtotal: '84.99',
      discount: '15',
    });
    expect(amounts({ price: '80', quantity: '2', discount_percentage: '100' })).toEqual({
      unit_price_after_discount: '0',
      subtotal: '0',
      discount: '160',
    });
  });

  it('with a fixed discount per quantity', () => {
    expect(amounts({ price: '100', quantity: '2.5', discount_fixed_per_quantity: '10.005' })).toEqual({
      unit_price_after_discount: '89.995',
      subtotal: '224.99', // 250 − 25.0125 = 224.9875 → 224.99
      discount: '25.01', // 25.0125 → 25.01
    });
  });

  it('with a fixed total discount, also when the quantity does not divide it', () => {
    expect(amounts({ price: '100', quantity: '4', discount_fixed_total: '50' })).toEqual({
      unit_price_after_discount: '87.5',
      subtotal: '350',
      discount: '50',
    });
    // 300 − 10 = 290 over 3 units: 96.666…; the subtotal comes from the exact 290, not 3 × 96.67.
    expect(amounts({ price: '100', quantity: '3', discount_fixed_total: '10' })).toEqual({
      unit_price_after_discount: '96.66666666666666666666666666666666666667',
      subtotal: '290',
      discount: '10',
    });
  });

  it('in ISK rounds to whole krónur, half-up', () => {
    expect(amounts({ price: '1000.5', quantity: '1', currency: 'ISK' })).toEqual({
      unit_price_after_discount: '1000.5',
      subtotal: '1001',
      discount: '0',
    });
    // 3 × 999 = 2997; 12.5% = 374.625 → 375; 2997 − 374.625 = 2622.375 → 2622
    expect(amounts({ price: '999', quantity: '3', discount_percentage: '12.5', currency: 'ISK' })).toEqual({
      unit_price_after_discount: '874.125',
      subtotal: '2622',
      discount: '375',
    });
  });
});
