import { describe, expect, it } from 'vitest';
import { taxCategory } from './tax-category.js';

const dk = { seller_country: 'DK', collect_vat: true };

describe('the VAT category of a line (UNCL 5305) from the invoice’s VAT decision', () => {
  it('S at home and to EU buyers without a valid VAT number; AE/K under reverse charge; G/O outside the EU; O without VAT', () => {
    const category = (facts: Partial<Parameters<typeof taxCategory>[0]>, vatType = 'services') =>
      taxCategory({ ...dk, buyer_country: 'DK', buyer_vat_number: null, ...facts }, vatType).category;
    expect(category({})).toBe('S');
    expect(category({ buyer_country: 'SE' })).toBe('S');
    expect(category({ buyer_country: 'DE', buyer_vat_number: 'DE12' })).toBe('S');
    expect(category({ buyer_country: 'DE', buyer_vat_number: 'DE123456789' })).toBe('AE');
    expect(category({ buyer_country: 'DE', buyer_vat_number: 'DE123456789' }, 'physical')).toBe('K');
    expect(category({ buyer_country: 'US' })).toBe('O');
    expect(category({ buyer_country: 'US' }, 'physical')).toBe('G');
    expect(category({ collect_vat: false })).toBe('O');
    expect(category({ seller_country: 'US', buyer_country: 'US' })).toBe('O');
  });
});
