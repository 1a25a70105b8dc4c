import { type CountryCode, isEuCountry } from '@billing/reference-data';

/**
 * Where the rates below come from. Changing a rate is a data change: edit the table, `validOn`
 * and, when a new edition is used, `edition` (see README.md).
 */
export const EU_VAT_RATES_SOURCE = {
  publisher: 'European Commission, Directorate-General for Taxation and Customs Union (DG TAXUD)',
  title: 'VAT rates applied in the Member States of the European Union',
  url: 'https://taxation-customs.ec.europa.eu/taxation/vat/vat-directive/vat-rates_en',
  edition: 'Situation at 1st January 2025',
  /** The day the table is correct for. */
  validOn: '2026-01-01',
  /** Standard-rate changes that took effect after that edition and before `validOn`. */
  laterChanges: ['EE 22 → 24 on 2025-07-01', 'RO 19 → 21 on 2025-08-01'],
} as const;

/**
 * The standard VAT rate of every EU member state, in percent, as decimal text ("25.5" is 25.5 %).
 * Keys are ISO 3166-1 alpha-2 codes, as everywhere in the API (Greece is GR here; its VAT numbers
 * carry the prefix EL). Only standard rates: gaps.md §7 applies no reduced rate.
 */
export const EU_STANDARD_VAT_RATES: Readonly<Partial<Record<CountryCode, string>>> = {
  AT: '20',
  BE: '21',
  BG: '20',
  CY: '19',
  CZ: '21',
  DE: '19',
  DK: '25',
  EE: '24',
  ES: '21',
  FI: '25.5',
  FR: '20',
  GR: '24',
  HR: '25',
  HU: '27',
  IE: '23',
  IT: '22',
  LT: '21',
  LU: '17',
  LV: '21',
  MT: '18',
  NL: '21',
  PL: '23',
  PT: '23',
  RO: '21',
  SE: '25',
  SI: '22',
  SK: '23',
};

/**
 * The standard rate of an EU member state, or null for a country outside the EU. An EU member
 * without a rate in the table is a data fault and throws, rather than quietly charging no VAT.
 */
export function standardVatRate(country: string): string | null {
  if (!isEuCountry(country)) return null;
  const rate = EU_STANDARD_VAT_RATES[country as CountryCode];
  if (rate === undefined) throw new Error(`No standard VAT rate for EU member state ${country}`);
  return rate;
}
