/**
 * Every text a person reads on an invoice PDF, invoice e-mail or payment reminder, per language. English is the
 * source: its keys are the key set, so a Danish table missing a key (or a text using a key not
 * in English) fails typecheck. Placeholders are `{name}`; `texts.test.ts` checks that every
 * translation uses exactly the placeholders of its English text.
 */
const en = {
  invoiceTitle: 'Invoice',
  creditNoteTitle: 'Credit note',
  invoiceNumber: 'Invoice number',
  creditNoteNumber: 'Credit note number',
  invoiceDate: 'Invoice date',
  creditNoteDate: 'Credit note date',
  dueDate: 'Due date',
  poNumber: 'PO number',
  from: 'From',
  to: 'To',
  vatNumber: 'VAT no. {vatNumber}',
  description: 'Description',
  period: 'Period {from} – {to}',
  quantity: 'Quantity',
  unitPrice: 'Unit price',
  lineVatRate: 'VAT',
  amount: 'Amount',
  vatBreakdown: 'VAT breakdown',
  vatRate: 'VAT rate',
  vatBase: 'Taxable amount',
  vatAmount: 'VAT',
  subtotal: 'Subtotal excl. VAT',
  vat: 'VAT',
  total: 'Total',
  amountDue: 'Amount due',
  paymentDetails: 'Payment details',
  iban: 'IBAN',
  bic: 'BIC',
  regNumber: 'Reg. no.',
  accountNumber: 'Account no.',
  paymentReference: 'Payment reference',
  // What a line of a subscription change or cancellation is, and the share of its period it
  // charges (written into the line's description when the invoice is made).
  lineChangeCredit: 'Credit for unused time',
  lineChangeCharge: 'Remaining time',
  lineChangeElapsed: 'Time used before the change',
  lineCancelCredit: 'Credit for unused time',
  lineCancelElapsed: 'Time used',
  prorationShare: '{days} of {periodDays} days',
  // The VAT notes of @billing/tax (VAT_REASON_TEXT, English) so documents can print them in
  // their own language; texts.test.ts keeps these equal to the library's sentences.
  vatNoteNotCollected: 'The plan does not collect VAT.',
  vatNoteSellerOutsideEu: 'The seller is outside the EU: no EU VAT is charged.',
  vatNoteDomestic: "The buyer is in the seller's country: that country's standard rate applies.",
  vatNoteOutsideEu: 'The buyer is outside the EU: no VAT is charged.',
  vatNoteReverseCharge:
    'Reverse charge: the buyer, registered for VAT in another EU member state, accounts for the VAT (Council Directive 2006/112/EC, article 196).',
  vatNoteInvalidVatNumber:
    "The buyer's VAT number does not have the format of its country: the seller's standard rate applies.",
  vatNoteNoVatNumber: "The buyer, in another EU member state, has no VAT number: the seller's standard rate applies.",
  paymentTermsDays: 'Payment terms: {days} days',
  paymentTermsOneDay: 'Payment terms: 1 day',
  paymentTermsOnReceipt: 'Payment terms: on receipt',
  page: 'Page {page} of {pages}',
  mailSubjectInvoice: 'Invoice {number} from {seller}',
  mailSubjectCreditNote: 'Credit note {number} from {seller}',
  mailBodyInvoice:
    'Hello,\n\nPlease find attached invoice {number} from {seller}.\n\nTotal: {total} {currency}\nDue date: {dueDate}\n\nKind regards,\n{seller}\n',
  mailBodyCreditNote:
    'Hello,\n\nPlease find attached credit note {number} from {seller}.\n\nTotal: {total} {currency}\n\nKind regards,\n{seller}\n',
  mailSubjectReminder: 'Reminder {reminder}: invoice {number} from {seller}',
  mailBodyReminder:
    'Hello,\n\nWe have not yet received payment of invoice {number} from {seller}, which fell due on {dueDate}.\n\nAmount due: {balance} {currency}\nDue date: {dueDate}\n\n',
  mailReminderFee:
    'A reminder fee of {fee} {currency} has been added to your account and will be charged on a later invoice.\n\n',
  mailReminderClosing: 'If you have already paid, please disregard this reminder.\n\nKind regards,\n{seller}\n',
  reminderFeeLine: 'Reminder fee, invoice {number}',
} as const;

export type TextKey = keyof typeof en;
type Table = { readonly [K in TextKey]: string };

const da: Table = {
  invoiceTitle: 'Faktura',
  creditNoteTitle: 'Kreditnota',
  invoiceNumber: 'Fakturanummer',
  creditNoteNumber: 'Kreditnotanummer',
  invoiceDate: 'Fakturadato',
  creditNoteDate: 'Kreditnotadato',
  dueDate: 'Forfaldsdato',
  poNumber: 'Rekvisitionsnummer',
  from: 'Fra',
  to: 'Til',
  vatNumber: 'Momsnr. {vatNumber}',
  description: 'Beskrivelse',
  period: 'Periode {from} – {to}',
  quantity: 'Antal',
  unitPrice: 'Enhedspris',
  lineVatRate: 'Moms',
  amount: 'Beløb',
  vatBreakdown: 'Momsspecifikation',
  vatRate: 'Momssats',
  vatBase: 'Momsgrundlag',
  vatAmount: 'Moms',
  subtotal: 'I alt ekskl. moms',
  vat: 'Moms',
  total: 'I alt',
  amountDue: 'Til betaling',
  paymentDetails: 'Betalingsoplysninger',
  iban: 'IBAN',
  bic: 'BIC',
  regNumber: 'Reg.nr.',
  accountNumber: 'Kontonr.',
  paymentReference: 'Betalingsreference',
  lineChangeCredit: 'Kredit for ubrugt tid',
  lineChangeCharge: 'Resterende tid',
  lineChangeElapsed: 'Brugt tid før ændringen',
  lineCancelCredit: 'Kredit for ubrugt tid',
  lineCancelElapsed: 'Brugt tid',
  prorationShare: '{days} af {periodDays} dage',
  vatNoteNotCollected: 'Planen opkræver ikke moms.',
  vatNoteSellerOutsideEu: 'Sælger er uden for EU: der opkræves ikke EU-moms.',
  vatNoteDomestic: 'Køber er i sælgers land: landets normale momssats gælder.',
  vatNoteOutsideEu: 'Køber er uden for EU: der opkræves ikke moms.',
  vatNoteReverseCharge:
    'Omvendt betalingspligt: køber, der er momsregistreret i en anden EU-medlemsstat, afregner momsen (Rådets direktiv 2006/112/EF, artikel 196).',
  vatNoteInvalidVatNumber: 'Købers momsnummer har ikke sit lands format: sælgers normale momssats gælder.',
  vatNoteNoVatNumber: 'Køber i en anden EU-medlemsstat har intet momsnummer: sælgers normale momssats gælder.',
  paymentTermsDays: 'Betalingsbetingelser: {days} dage',
  paymentTermsOneDay: 'Betalingsbetingelser: 1 dag',
  paymentTermsOnReceipt: 'Betalingsbetingelser: netto kontant',
  page: 'Side {page} af {pages}',
  mailSubjectInvoice: 'Faktura {number} fra {seller}',
  mailSubjectCreditNote: 'Kreditnota {number} fra {seller}',
  mailBodyInvoice:
    'Hej,\n\nVedhæftet finder du faktura {number} fra {seller}.\n\nI alt: {total} {currency}\nForfaldsdato: {dueDate}\n\nVenlig hilsen\n{seller}\n',
  mailBodyCreditNote:
    'Hej,\n\nVedhæftet finder du kreditnota {number} fra {seller}.\n\nI alt: {total} {currency}\n\nVenlig hilsen\n{seller}\n',
  mailSubjectReminder: 'Rykker {reminder}: faktura {number} fra {seller}',
  mailBodyReminder:
    'Hej,\n\nVi har endnu ikke modtaget betaling for faktura {number} fra {seller}, som forfaldt til betaling den {dueDate}.\n\nSkyldigt beløb: {balance} {currency}\nForfaldsdato: {dueDate}\n\n',
  mailReminderFee: 'Der er pålagt et rykkergebyr på {fee} {currency}, som opkræves på en senere faktura.\n\n',
  mailReminderClosing: 'Har du allerede betalt, kan du se bort fra denne rykker.\n\nVenlig hilsen\n{seller}\n',
  reminderFeeLine: 'Rykkergebyr, faktura {number}',
};

export const TEXTS = { en, da } as const satisfies Record<string, Table>;

export type Language = keyof typeof TEXTS;

/** The placeholder names of a text, e.g. `'{days} days'` gives `'days'`. */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;
export type TextParams<K extends TextKey> = { readonly [P in Placeholders<(typeof en)[K]>]: string | number };

/**
 * The document language of an ISO 639-1 code ('da', 'DA', 'da-DK'); every language without a
 * table (de, nl, ... or empty) is written in English.
 */
export function documentLanguage(code: string): Language {
  const base = code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return Object.hasOwn(TEXTS, base) ? (base as Language) : 'en';
}

/** One text in `language` with its placeholders filled in. */
export function text<K extends TextKey>(
  language: Language,
  key: K,
  ...params: Placeholders<(typeof en)[K]> extends never ? [] : [TextParams<K>]
): string {
  const values: Readonly<Record<string, string | number>> = params[0] ?? {};
  return TEXTS[language][key].replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`text ${key}: no value for {${name}}`);
    return String(value);
  });
}
