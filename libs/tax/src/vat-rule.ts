import { isCountryCode, isEuCountry } from '@billing/reference-data';
import { standardVatRate } from './eu-vat-rates.js';
import { isValidVatNumberFormat } from './vat-number-format.js';

/** What decides the VAT of a sale (gaps.md §7). Countries are ISO 3166-1 alpha-2 codes. */
export interface VatFacts {
  /** The seller: the organization's country. */
  seller_country: string;
  /** The buyer's country: the account's legal country. */
  buyer_country: string;
  /** The buyer's VAT number (the account's legal_vat_number); null, "" or blanks: none. */
  buyer_vat_number: string | null;
  /** The plan's collect_vat. */
  collect_vat: boolean;
}

/** Why a rate applies; stable codes, one per branch of the rule, readable as they are. */
export const VAT_REASONS = [
  'not_collected',
  'seller_outside_eu',
  'domestic',
  'outside_eu',
  'eu_reverse_charge',
  'eu_invalid_vat_number',
  'eu_no_vat_number',
] as const;
export type VatReason = (typeof VAT_REASONS)[number];

export interface VatDecision {
  /** Percent as decimal text ("25", "25.5", "0"). */
  rate: string;
  /** The buyer accounts for the VAT (EU reverse charge); the invoice must say so. */
  reverse_charge: boolean;
  reason: VatReason;
}

const NO_VAT = '0';

/**
 * The VAT rule of gaps.md §7, in this order:
 * 1. the plan does not collect VAT (`collect_vat` false): 0;
 * 2. the seller is outside the EU: 0 (the platform keeps only the EU member states' rates);
 * 3. the buyer is in the seller's country: that country's standard rate;
 * 4. the buyer is outside the EU: 0;
 * 5. the buyer is in another EU state with a VAT number of that state's format: 0, reverse charge;
 * 6. ... with a VAT number that does not have that format: the seller's standard rate (treated as
 *    having none: reverse charge needs a valid number);
 * 7. ... without a VAT number: the seller's standard rate.
 * The VAT number decides B2B, not the account's `type`: §7 names only the number, and a sole
 * trader recorded as a person is a taxable person when registered (Implementing Regulation
 * 282/2011 art. 18: the number is the evidence). The plan's `vat_type` does not change the rate.
 */
export function decideVat(facts: VatFacts): VatDecision {
  assertCountry(facts.seller_country, 'seller_country');
  assertCountry(facts.buyer_country, 'buyer_country');
  if (!facts.collect_vat) return { rate: NO_VAT, reverse_charge: false, reason: 'not_collected' };
  const sellerRate = standardVatRate(facts.seller_country);
  if (sellerRate === null) return { rate: NO_VAT, reverse_charge: false, reason: 'seller_outside_eu' };
  if (facts.buyer_country === facts.seller_country)
    return { rate: sellerRate, reverse_charge: false, reason: 'domestic' };
  if (!isEuCountry(facts.buyer_country)) return { rate: NO_VAT, reverse_charge: false, reason: 'outside_eu' };
  const vatNumber = facts.buyer_vat_number?.trim() ?? '';
  if (vatNumber === '') return { rate: sellerRate, reverse_charge: false, reason: 'eu_no_vat_number' };
  if (isValidVatNumberFormat(vatNumber, facts.buyer_country)) {
    return { rate: NO_VAT, reverse_charge: true, reason: 'eu_reverse_charge' };
  }
  return { rate: sellerRate, reverse_charge: false, reason: 'eu_invalid_vat_number' };
}

/** One sentence per reason, for people (invoice notes, logs, support). */
export const VAT_REASON_TEXT: Readonly<Record<VatReason, string>> = {
  not_collected: 'The plan does not collect VAT.',
  seller_outside_eu: 'The seller is outside the EU: no EU VAT is charged.',
  domestic: "The buyer is in the seller's country: that country's standard rate applies.",
  outside_eu: 'The buyer is outside the EU: no VAT is charged.',
  eu_reverse_charge:
    'Reverse charge: the buyer, registered for VAT in another EU member state, accounts for the VAT (Council Directive 2006/112/EC, article 196).',
  eu_invalid_vat_number:
    "The buyer's VAT number does not have the format of its country: the seller's standard rate applies.",
  eu_no_vat_number: "The buyer, in another EU member state, has no VAT number: the seller's standard rate applies.",
};

/** A fact decideVat cannot work with; `field` names it, so callers can answer with a 400 on that field. */
export class VatFactError extends RangeError {
  constructor(
    readonly field: keyof VatFacts,
    message: string,
  ) {
    super(message);
    this.name = 'VatFactError';
  }
}

function assertCountry(value: string, field: 'seller_country' | 'buyer_country'): void {
  if (!isCountryCode(value)) {
    throw new VatFactError(field, `${field} must be an ISO 3166-1 alpha-2 country code, got ${JSON.stringify(value)}`);
  }
}
