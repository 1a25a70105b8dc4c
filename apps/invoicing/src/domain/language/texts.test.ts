import { VAT_REASON_TEXT } from '@billing/tax';
import { describe, expect, it } from 'vitest';
import { documentLanguage, TEXTS, type TextKey, text } from './texts.js';

const placeholders = (value: string) => [...value.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('texts', () => {
  it('gives every translation exactly the placeholders of its English text', () => {
    for (const [language, table] of Object.entries(TEXTS)) {
      for (const key of Object.keys(TEXTS.en) as TextKey[]) {
        expect({ language, key, placeholders: placeholders(table[key]) }).toEqual({
          language,
          key,
          placeholders: placeholders(TEXTS.en[key]),
        });
      }
    }
  });

  it("keeps the English VAT notes equal to @billing/tax's sentences, which invoices carry as vat_note", () => {
    expect([
      TEXTS.en.vatNoteNotCollected,
      TEXTS.en.vatNoteSellerOutsideEu,
      TEXTS.en.vatNoteDomestic,
      TEXTS.en.vatNoteOutsideEu,
      TEXTS.en.vatNoteReverseCharge,
      TEXTS.en.vatNoteInvalidVatNumber,
      TEXTS.en.vatNoteNoVatNumber,
    ]).toEqual([
      VAT_REASON_TEXT.not_collected,
      VAT_REASON_TEXT.seller_outside_eu,
      VAT_REASON_TEXT.domestic,
      VAT_REASON_TEXT.outside_eu,
      VAT_REASON_TEXT.eu_reverse_charge,
      VAT_REASON_TEXT.eu_invalid_vat_number,
      VAT_REASON_TEXT.eu_no_vat_number,
    ]);
  });

  it('writes en and da, and English for every other or malformed language code', () => {
    expect(documentLanguage('da')).toBe('da');
    expect(documentLanguage('DA')).toBe('da');
    expect(documentLanguage('da-DK')).toBe('da');
    expect(documentLanguage('en')).toBe('en');
    expect(documentLanguage('de')).toBe('en');
    expect(documentLanguage('se')).toBe('en');
    expect(documentLanguage('')).toBe('en');
    // Keys of Object.prototype are no languages.
    expect(documentLanguage('constructor')).toBe('en');
  });

  it('fills placeholders', () => {
    expect(text('da', 'paymentTermsDays', { days: 30 })).toBe('Betalingsbetingelser: 30 dage');
    expect(text('en', 'mailSubjectInvoice', { number: '12', seller: 'Nordlys ApS' })).toBe(
      'Invoice 12 from Nordlys ApS',
    );
    expect(text('da', 'total')).toBe('I alt');
  });
});
