import { VAT_REASON_TEXT, type VatReason } from '@billing/tax';
import { type Language, type TextKey, text } from './texts.js';

type VatNoteKey = Extract<TextKey, `vatNote${string}`>;

/** Every reason @billing/tax can give has a text here; a new reason fails typecheck. */
const NOTE_KEYS: Readonly<Record<VatReason, VatNoteKey>> = {
  not_collected: 'vatNoteNotCollected',
  seller_outside_eu: 'vatNoteSellerOutsideEu',
  domestic: 'vatNoteDomestic',
  outside_eu: 'vatNoteOutsideEu',
  eu_reverse_charge: 'vatNoteReverseCharge',
  eu_invalid_vat_number: 'vatNoteInvalidVatNumber',
  eu_no_vat_number: 'vatNoteNoVatNumber',
};

/**
 * The VAT note an invoice prints. The invoice's `vat_note` is one of @billing/tax's English
 * sentences, printed in the document's language; any other note is printed as it is. Without a
 * note, a reverse-charge invoice still says so (the EU VAT directive requires the mention).
 */
export function vatNote(language: Language, invoice: { vat_note: string; reverse_charge: boolean }): string | null {
  const note = invoice.vat_note.trim();
  if (note === '') return invoice.reverse_charge ? text(language, 'vatNoteReverseCharge') : null;
  const reason = (Object.keys(NOTE_KEYS) as VatReason[]).find((key) => VAT_REASON_TEXT[key] === note);
  return reason === undefined ? invoice.vat_note : text(language, NOTE_KEYS[reason]);
}
