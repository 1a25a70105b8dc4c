import { decideVat, type VatFacts, type VatReason } from '@billing/tax';

/** UNCL 5305 VAT category codes used by Peppol BIS Billing 3.0. */
export type TaxCategory = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O';

/** The VATEX code a category without VAT must carry (BR-AE-10, BR-IC-10, BR-G-10, BR-O-10). */
export const EXEMPTION_CODES: Readonly<Partial<Record<TaxCategory, string>>> = {
  AE: 'VATEX-EU-AE',
  K: 'VATEX-EU-IC',
  G: 'VATEX-EU-G',
  O: 'VATEX-EU-O',
};

/**
 * The category of a line from the same VAT decision the invoice's amounts were made with
 * (@billing/tax decideVat over the parties copied into the invoice): the rate and the category
 * never disagree. Goods (`vat_type` physical) sold to another EU state under reverse charge are an
 * intra-community supply (K), exported goods G; services in those cases AE and O.
 */
export function taxCategory(facts: VatFacts, vatType: string): { category: TaxCategory; reason: VatReason } {
  const decision = decideVat(facts);
  const goods = vatType === 'physical';
  return { category: categoryOf(decision.reason, decision.rate, goods), reason: decision.reason };
}

function categoryOf(reason: VatReason, rate: string, goods: boolean): TaxCategory {
  switch (reason) {
    case 'not_collected':
    case 'seller_outside_eu':
      return 'O';
    case 'outside_eu':
      return goods ? 'G' : 'O';
    case 'eu_reverse_charge':
      return goods ? 'K' : 'AE';
    case 'domestic':
    case 'eu_invalid_vat_number':
    case 'eu_no_vat_number':
      return Number(rate) === 0 ? 'Z' : 'S';
  }
}
