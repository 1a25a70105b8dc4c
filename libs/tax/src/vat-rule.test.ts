import { describe, expect, it } from 'vitest';
import { decideVat, VAT_REASON_TEXT, VAT_REASONS, VatFactError, type VatFacts } from './index.js';

const danishSeller = (facts: Partial<VatFacts>): VatFacts => ({
  seller_country: 'DK',
  buyer_country: 'DK',
  buyer_vat_number: null,
  collect_vat: true,
  ...facts,
});

describe('decideVat (gaps.md §7)', () => {
  it('collect_vat false: 0, whoever buys', () => {
    for (const buyer of [
      { buyer_country: 'DK' },
      { buyer_country: 'DE', buyer_vat_number: 'DE123456789' },
      { buyer_country: 'US' },
    ]) {
      expect(decideVat(danishSeller({ ...buyer, collect_vat: false }))).toEqual({
        rate: '0',
        reverse_charge: false,
        reason: 'not_collected',
      });
    }
  });

  it("buyer in the seller's country: that country's standard rate, with or without a VAT number", () => {
    const domestic = { rate: '25', reverse_charge: false, reason: 'domestic' };
    expect(decideVat(danishSeller({}))).toEqual(domestic);
    expect(decideVat(danishSeller({ buyer_vat_number: 'DK12345678' }))).toEqual(domestic);
    expect(decideVat(danishSeller({ seller_country: 'FI', buyer_country: 'FI' }))).toEqual({
      ...domestic,
      rate: '25.5',
    });
    expect(decideVat(danishSeller({ seller_country: 'DE', buyer_country: 'DE' }))).toEqual({ ...domestic, rate: '19' });
  });

  it('buyer in another EU state with a VAT number of its format: 0, reverse charge', () => {
    const reverse = { rate: '0', reverse_charge: true, reason: 'eu_reverse_charge' };
    expect(decideVat(danishSeller({ buyer_country: 'DE', buyer_vat_number: 'DE123456789' }))).toEqual(reverse);
    expect(decideVat(danishSeller({ buyer_country: 'DE', buyer_vat_number: ' de 123 456 789 ' }))).toEqual(reverse);
    expect(decideVat(danishSeller({ buyer_country: 'GR', buyer_vat_number: 'EL123456789' }))).toEqual(reverse);
    expect(
      decideVat(danishSeller({ seller_country: 'DE', buyer_country: 'DK', buyer_vat_number: '12345678' })),
    ).toEqual(reverse);
  });

  it("buyer in another EU state whose VAT number misses its format: the seller's rate", () => {
    expect(decideVat(danishSeller({ buyer_country: 'DE', buyer_vat_number: 'DE12345' }))).toEqual({
      rate: '25',
      reverse_charge: false,
      reason: 'eu_invalid_vat_number',
    });
    // Another state's number is not the buyer's country's number.
    expect(decideVat(danishSeller({ buyer_country: 'DE', buyer_vat_number: 'SE123456789001' })).reason).toBe(
      'eu_invalid_vat_number',
    );
  });

  it("buyer in another EU state without a VAT number: the seller's rate", () => {
    const noNumber = { rate: '25', reverse_charge: false, reason: 'eu_no_vat_number' };
    expect(decideVat(danishSeller({ buyer_country: 'DE' }))).toEqual(noNumber);
    expect(decideVat(danishSeller({ buyer_country: 'DE', buyer_vat_number: '' }))).toEqual(noNumber);
    expect(decideVat(danishSeller({ buyer_country: 'DE', buyer_vat_number: '   ' }))).toEqual(noNumber);
    expect(decideVat(danishSeller({ seller_country: 'SE', buyer_country: 'FR' }))).toEqual({ ...noNumber, rate: '25' });
    expect(decideVat(danishSeller({ seller_country: 'LU', buyer_country: 'FR' }))).toEqual({ ...noNumber, rate: '17' });
  });

  it('buyer outside the EU: 0, with or without a VAT number', () => {
    const outside = { rate: '0', reverse_charge: false, reason: 'outside_eu' };
    expect(decideVat(danishSeller({ buyer_country: 'US' }))).toEqual(outside);
    expect(decideVat(danishSeller({ buyer_country: 'NO', buyer_vat_number: 'NO123456789MVA' }))).toEqual(outside);
    expect(decideVat(danishSeller({ buyer_country: 'GB', buyer_vat_number: 'GB123456789' }))).toEqual(outside);
  });

  it('seller outside the EU: 0 (no rates are kept for it), also at home', () => {
    const sellerOutside = { rate: '0', reverse_charge: false, reason: 'seller_outside_eu' };
    expect(decideVat(danishSeller({ seller_country: 'NO', buyer_country: 'NO' }))).toEqual(sellerOutside);
    expect(decideVat(danishSeller({ seller_country: 'US', buyer_country: 'DK' }))).toEqual(sellerOutside);
  });

  it('refuses what is not a country code', () => {
    const fieldOf = (facts: Partial<VatFacts>) => {
      try {
        decideVat(danishSeller(facts));
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(VatFactError);
        expect(error).toBeInstanceOf(RangeError);
        return (error as VatFactError).field;
      }
    };
    expect(fieldOf({ seller_country: 'XX' })).toBe('seller_country');
    expect(fieldOf({ buyer_country: 'dk' })).toBe('buyer_country');
    expect(fieldOf({ buyer_country: 'EL' })).toBe('buyer_country');
    expect(fieldOf({ buyer_country: '', collect_vat: false })).toBe('buyer_country');
  });

  it('has a sentence for every reason', () => {
    expect(Object.keys(VAT_REASON_TEXT).sort()).toEqual([...VAT_REASONS].sort());
    expect(VAT_REASON_TEXT.eu_reverse_charge).toContain('Reverse charge');
  });
});
