import { formatAmount, formatExact } from '@billing/money';
import { describe, expect, it } from 'vitest';
import {
  type ContractPricing,
  type PriceBreakdown,
  priceLine,
  selectTiers,
  type Tier,
  tierMatches,
} from './pricing.js';

const tier = (
  minimum_quantity: number,
  discount: string,
  discount_type: Tier['discount_type'] = 'percentage',
  maximum_quantity: number | null = null,
): Tier => ({
  minimum_quantity,
  maximum_quantity,
  discount,
  discount_type,
});
const tenFromFive: ContractPricing = { exclusive_tiers: true, tiers: [tier(5, '10')] };
/** The breakdown as strings, the way a person would check it. */
const plain = (b: PriceBreakdown) => ({
  unit_price: formatExact(b.unit_price),
  price_source: b.price_source,
  tiers_applied: b.tiers_applied.map((t) => ({
    minimum_quantity: t.minimum_quantity,
    discount: formatExact(t.discount),
    discount_type: t.discount_type,
    amount_off_per_unit: formatExact(t.amount_off_per_unit),
  })),
  discounted_unit_price: formatExact(b.discounted_unit_price),
  quantity: b.quantity,
  subtotal: formatAmount(b.subtotal, b.currency),
});

describe('priceLine: issue 3 acceptance, a 10% tier from quantity 5', () => {
  it('terms 100.00, quantity 5: 450.00', () => {
    expect(plain(priceLine({ terms_price: '100.00', currency: 'DKK', quantity: 5, contract: tenFromFive }))).toEqual({
      unit_price: '100',
      price_source: 'terms',
      tiers_applied: [{ minimum_quantity: 5, discount: '10', discount_type: 'percentage', amount_off_per_unit: '10' }],
      discounted_unit_price: '90',
      quantity: 5,
      subtotal: '450.00',
    });
  });

  it('override_price 80.00, quantity 5: the discount applies to the override, 360.00', () => {
    const line = priceLine({
      terms_price: '100.00',
      override_price: '80.00',
      currency: 'DKK',
      quantity: 5,
      contract: tenFromFive,
    });
    expect(plain(line)).toEqual({
      unit_price: '80',
      price_source: 'override',
      tiers_applied: [{ minimum_quantity: 5, discount: '10', discount_type: 'percentage', amount_off_per_unit: '8' }],
      discounted_unit_price: '72',
      quantity: 5,
      subtotal: '360.00',
    });
  });

  it('quantity 4: no tier, 400.00 (320.00 with the override)', () => {
    const line = priceLine({ terms_price: '100.00', currency: 'DKK', quantity: 4, contract: tenFromFive });
    expect(plain(line).tiers_applied).toEqual([]);
    expect(plain(line).subtotal).toBe('400.00');
    const overridden = priceLine({
      terms_price: '100',
      override_price: '80',
      currency: 'DKK',
      quantity: 4,
      contract: tenFromFive,
    });
    expect(plain(overridden).subtotal).toBe('320.00');
  });
});

describe('priceLine: plain prices, rounding, currencies', () => {
  it('without a contract it is price × quantity', () => {
    const line = priceLine({ terms_price: '100.00', currency: 'DKK', quantity: 2 });
    expect(plain(line)).toMatchObject({ unit_price: '100', discounted_unit_price: '100', subtotal: '200.00' });
    expect(line.exclusive_tiers).toBeNull();
    expect(formatAmount(priceLine({ terms_price: '100', currency: 'DKK', quantity: 0 }).subtotal, 'DKK')).toBe('0.00');
  });

  it('keeps the unit price exact and rounds only the line, half-up', () => {
    const line = priceLine({
      terms_price: '33.33',
      currency: 'EUR',
      quantity: 3,
      contract: { exclusive_tiers: true, tiers: [tier(1, '10')] },
    });
    expect(plain(line)).toMatchObject({ discounted_unit_price: '29.997', subtotal: '89.99' }); // 89.991
    const half = priceLine({ terms_price: '0.335', currency: 'EUR', quantity: 1 });
    expect(plain(half).subtotal).toBe('0.34');
  });

  it('ISK lines are whole krona', () => {
    const line = priceLine({
      terms_price: '1499',
      currency: 'ISK',
      quantity: 3,
      contract: { exclusive_tiers: true, tiers: [tier(3, '12.5')] },
    });
    // 1499 × 0.875 = 1311.625 per unit; × 3 = 3934.875 → 3935
    expect(plain(line)).toMatchObject({ discounted_unit_price: '1311.625', subtotal: '3935' });
  });

  it('fixed discounts take an amount off the unit price and never go below 0', () => {
    const fixed = priceLine({
      terms_price: '100',
      currency: 'DKK',
      quantity: 10,
      contract: { exclusive_tiers: true, tiers: [tier(10, '15.50', 'fixed')] },
    });
    expect(plain(fixed)).toMatchObject({ discounted_unit_price: '84.5', subtotal: '845.00' });
    expect(plain(fixed).tiers_applied[0]?.amount_off_per_unit).toBe('15.5');
    const tooMuch = priceLine({
      terms_price: '10',
      currency: 'DKK',
      quantity: 1,
      contract: { exclusive_tiers: true, tiers: [tier(1, '25', 'fixed')] },
    });
    expect(plain(tooMuch)).toMatchObject({ discounted_unit_price: '0', subtotal: '0.00' });
    expect(plain(tooMuch).tiers_applied[0]?.amount_off_per_unit).toBe('10');
    const hundred = priceLine({
      terms_price: '10',
      currency: 'DKK',
      quantity: 1,
      contract: { exclusive_tiers: true, tiers: [tier(1, '100')] },
    });
    expect(plain(hundred).subtotal).toBe('0.00');
  });
});

describe('tier selection', () => {
  const tiers = [tier(10, '20'), tier(1, '5'), tier(5, '10'), tier(5, '3', 'fixed', 9)];

  it('matches on inclusive bounds; null maximum means none', () => {
    expect(tierMatches(tier(5, '10', 'percentage', 9), 4)).toBe(false);
    expect(tierMatches(tier(5, '10', 'percentage', 9), 5)).toBe(true);
    expect(tierMatches(tier(5, '10', 'percentage', 9), 9)).toBe(true);
    expect(tierMatches(tier(5, '10', 'percentage', 9), 10)).toBe(false);
    expect(tierMatches(tier(5, '10'), 2_147_483_647)).toBe(true);
  });

  it('exclusive: the matching tier with the highest minimum_quantity; ties go to the larger discount', () => {
    const contract = { exclusive_tiers: true, tiers };
    const price = priceLine({ terms_price: '100', currency: 'DKK', quantity: 1 }).unit_price;
    expect(selectTiers(contract, 0, price)).toEqual([]);
    expect(selectTiers(contract, 3, price)).toEqual([tier(1, '5')]);
    // 5 matches tier(1), tier(5, 10%) and tier(5, 3 fixed): 10% of 100 (10) beats 3.
    expect(selectTiers(contract, 5, price)).toEqual([tier(5, '10')]);
    expect(selectTiers(contract, 5, priceLine({ terms_price: '20', currency: 'DKK', quantity: 1 }).unit_price)).toEqual(
      [tier(5, '3', 'fixed', 9)],
    ); // 10% of 20 (2) loses to 3
    expect(selectTiers(contract, 12, price)).toEqual([tier(10, '20')]);
    expect(plain(priceLine({ terms_price: '100', currency: 'DKK', quantity: 12, contract })).subtotal).toBe('960.00');
  });

  it('non-exclusive: every matching tier in ascending minimum_quantity, each on the price left', () => {
    const contract = { exclusive_tiers: false, tiers };
    const line = priceLine({ terms_price: '100', currency: 'DKK', quantity: 6, contract });
    // 100 − 5% (5) = 95; − 10% (9.5) = 85.5; − 3 fixed = 82.5; × 6 = 495
    expect(plain(line)).toEqual({
      unit_price: '100',
      price_source: 'terms',
      tiers_applied: [
        { minimum_quantity: 1, discount: '5', discount_type: 'percentage', amount_off_per_unit: '5' },
        { minimum_quantity: 5, discount: '10', discount_type: 'percentage', amount_off_per_unit: '9.5' },
        { minimum_quantity: 5, discount: '3', discount_type: 'fixed', amount_off_per_unit: '3' },
      ],
      discounted_unit_price: '82.5',
      quantity: 6,
      subtotal: '495.00',
    });
    // 10 no longer matches the 5–9 fixed tier: 100 → 95 → 85.5 → 68.4; × 10 = 684
    expect(plain(priceLine({ terms_price: '100', currency: 'DKK', quantity: 10, contract })).subtotal).toBe('684.00');
  });
});

describe('validation', () => {
  it('refuses bad quantities, prices and tiers', () => {
    const ok = { terms_price: '100', currency: 'DKK' as const, quantity: 1 };
    expect(() => priceLine({ ...ok, quantity: -1 })).toThrow(RangeError);
    expect(() => priceLine({ ...ok, quantity: 1.5 })).toThrow(RangeError);
    expect(() => priceLine({ ...ok, quantity: 2_147_483_648 })).toThrow(RangeError);
    expect(() => priceLine({ ...ok, terms_price: '-1' })).toThrow(RangeError);
    expect(() => priceLine({ ...ok, terms_price: '1e3' })).toThrow();
    const withTier = (t: Tier) => () => priceLine({ ...ok, contract: { exclusive_tiers: true, tiers: [t] } });
    expect(withTier(tier(1, '101'))).toThrow(RangeError);
    expect(withTier(tier(1, '-1', 'fixed'))).toThrow(RangeError);
    expect(withTier(tier(5, '1', 'fixed', 4))).toThrow(RangeError);
    expect(withTier(tier(-1, '1'))).toThrow(RangeError);
    expect(withTier({ ...tier(1, '1'), discount_type: 'amount' as never })).toThrow(RangeError);
  });
});
