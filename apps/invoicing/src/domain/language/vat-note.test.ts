import { VAT_REASON_TEXT, VAT_REASONS } from '@billing/tax';
import { describe, expect, it } from 'vitest';
import { vatNote } from './vat-note.js';

describe('vatNote', () => {
  it("prints @billing/tax's sentences as they are in English", () => {
    for (const reason of VAT_REASONS) {
      expect(vatNote('en', { vat_note: VAT_REASON_TEXT[reason], reverse_charge: false })).toBe(VAT_REASON_TEXT[reason]);
    }
  });

  it('translates them on a Danish invoice', () => {
    expect(vatNote('da', { vat_note: VAT_REASON_TEXT.eu_reverse_charge, reverse_charge: true })).toBe(
      'Omvendt betalingspligt: køber, der er momsregistreret i en anden EU-medlemsstat, afregner momsen (Rådets direktiv 2006/112/EF, artikel 196).',
    );
    expect(vatNote('da', { vat_note: VAT_REASON_TEXT.outside_eu, reverse_charge: false })).toBe(
      'Køber er uden for EU: der opkræves ikke moms.',
    );
    const danish = new Set(
      VAT_REASONS.map((reason) => vatNote('da', { vat_note: VAT_REASON_TEXT[reason], reverse_charge: false })),
    );
    expect(danish.size).toBe(VAT_REASONS.length);
    for (const reason of VAT_REASONS) expect(danish.has(VAT_REASON_TEXT[reason])).toBe(false);
  });

  it('prints any other note as it is, and the reverse-charge sentence when a reverse-charge invoice has none', () => {
    expect(vatNote('da', { vat_note: 'Momsfri ydelse, jf. momslovens § 13.', reverse_charge: false })).toBe(
      'Momsfri ydelse, jf. momslovens § 13.',
    );
    expect(vatNote('en', { vat_note: '', reverse_charge: true })).toBe(VAT_REASON_TEXT.eu_reverse_charge);
    expect(vatNote('da', { vat_note: ' ', reverse_charge: false })).toBeNull();
  });
});
