import { decideVat, type VatDecision } from '@billing/tax';
import { describe, expect, it } from 'vitest';
import { quotePrice } from './price-quote.js';
import { priceLine, type Tier } from './pricing.js';

const DOMESTIC_DK: VatDecision = { rate: '25', reverse_charge: false, reason: 'domestic' };
const REVERSE: VatDecision = { rate: '0', reverse_charge: true, reason: 'eu_reverse_charge' };
const tenPercentFrom5: Tier = {
  minimum_quantity: 5,
  maximum_quantity: null,
  discount: '10',
  discount_type: 'percentage',
};

describe('quotePrice', () => {
  it('100.00 DKK × 2, Danish buyer: 200.00 + 50.00 VAT = 250.00', () => {
    const line = priceLine({ terms_price: '100.000000', currency: 'DKK', quantity: 2 });

    expect(quotePrice(line, DOMESTIC_DK)).toEqual({
      currency: 'DKK',
      unit_price: '100.00',
      discount: '0.00',
      quantity: 2,
      subtotal: '200.00',
      vat_rate: '25.00',
      vat: '50.00',
      total: '250.00',
      reverse_charge: false,
      vat_reason: 'domestic',
    });
  });

  it('a 10 % tier from quantity 5: discount 50.00 on 500.00', () => {
    const line = priceLine({
      terms_price: '100',
      currency: 'DKK',
      quantity: 5,
      contract: { exclusive_tiers: true, tiers: [tenPercentFrom5] },
    });

    expect(quotePrice(line, DOMESTIC_DK)).toMatchObject({
      unit_price: '100.00',
      discount: '50.00',
      subtotal: '450.00',
      vat: '112.50',
      total: '562.50',
    });
  });

  it('rounds each amount once: 33.33 less 10 % × 3', () => {
    const line = priceLine({
      terms_price: '33.33',
      currency: 'EUR',
      quantity: 3,
      contract: { exclusive_tiers: true, tiers: [{ ...tenPercentFrom5, minimum_quantity: 1 }] },
    });

    // 3.333 off per unit × 3 = 9.999 → 10.00; 29.997 × 3 = 89.991 → 89.99; 19 % of 89.99 = 17.0981 → 17.10.
    expect(quotePrice(line, { rate: '19', reverse_charge: false, reason: 'domestic' })).toMatchObject({
      unit_price: '33.33',
      discount: '10.00',
      subtotal: '89.99',
      vat_rate: '19.00',
      vat: '17.10',
      total: '107.09',
    });
  });

  it('keeps an exact unit price beyond the minor unit', () => {
    const line = priceLine({ terms_price: '9.995', currency: 'DKK', quantity: 2 });

    expect(quotePrice(line, DOMESTIC_DK)).toMatchObject({ unit_price: '9.995', subtotal: '19.99', vat: '5.00' });
  });

  it('ISK in whole krónur; reverse charge gives 0 VAT', () => {
    const line = priceLine({
      terms_price: '1499',
      currency: 'ISK',
      quantity: 3,
      contract: {
        exclusive_tiers: true,
        tiers: [{ ...tenPercentFrom5, minimum_quantity: 1, discount: '0.5', discount_type: 'fixed' }],
      },
    });

    expect(quotePrice(line, REVERSE)).toEqual({
      currency: 'ISK',
      unit_price: '1499',
      discount: '2', // 1.5 → 2
      quantity: 3,
      subtotal: '4496', // 1498.5 × 3 = 4495.5 → 4496
      vat_rate: '0.00',
      vat: '0',
      total: '4496',
      reverse_charge: true,
      vat_reason: 'eu_reverse_charge',
    });
  });

  it('quantity 0 is priced at 0', () => {
    const line = priceLine({ terms_price: '100', currency: 'DKK', quantity: 0 });

    expect(
      quotePrice(
        line,
        decideVat({ seller_country: 'DK', buyer_country: 'US', buyer_vat_number: null, collect_vat: true }),
      ),
    ).toEqual({
      currency: 'DKK',
      unit_price: '100.00',
      discount: '0.00',
      quantity: 0,
      subtotal: '0.00',
      vat_rate: '0.00',
      vat: '0.00',
      total: '0.00',
      reverse_charge: false,
      vat_reason: 'outside_eu',
    });
  });
});
