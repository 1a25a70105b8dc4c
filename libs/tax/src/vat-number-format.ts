import { type CountryCode, isEuCountry } from '@billing/reference-data';
import { type Country, checkVAT, countries } from 'jsvat';

/*
 * Formats come from the maintained jsvat library (per member state: lengths, digits and letters
 * in their places). Only the FORMAT counts (gaps.md §7: "a valid-format VAT number"): no check
 * digits, no register (VIES) lookup.
 */

/**
 * Formats jsvat's rules miss (VIES format table): Belgian numbers starting with 1 (since 2023),
 * Irish numbers of 7 digits and two letters (since 2013) and the old Irish form with a letter,
 * '+' or '*' in the second place.
 */
const FORMATS_JSVAT_MISSES: Readonly<Partial<Record<string, RegExp>>> = {
  BE: /^BE1\d{9}$/,
  IE: /^IE(?:\d{7}[A-W][A-IW]|\d[A-Z+*]\d{5}[A-W])$/,
};

const JSVAT_COUNTRY_BY_ISO: ReadonlyMap<string, Country> = new Map(
  countries.map((country) => [country.codes[0]!, country]),
);

/** The prefix VAT numbers carry: the ISO code, except Greece (EL). */
export function vatNumberPrefix(country: CountryCode): string {
  return country === 'GR' ? 'EL' : country;
}

/** Upper case, without the spaces, dots and dashes people write numbers with. */
export function normalizeVatNumber(vatNumber: string): string {
  return vatNumber.toUpperCase().replace(/[\s.-]/g, '');
}

/**
 * Whether `vatNumber` has the format of a VAT number of EU member state `country` (ISO code),
 * with or without its prefix (DK12345678 or 12345678 for DK; EL123456789 for GR). A number with
 * another state's prefix is not valid (unless it also reads as a number of `country`: a French
 * key may be any two letters), nor is any number for a country outside the EU.
 */
export function isValidVatNumberFormat(vatNumber: string, country: string): boolean {
  if (!isEuCountry(country)) return false;
  const rules = JSVAT_COUNTRY_BY_ISO.get(country);
  if (!rules) throw new Error(`No VAT number format for EU member state ${country}`);
  const normalized = normalizeVatNumber(vatNumber);
  const prefix = vatNumberPrefix(country as CountryCode);
  // Both readings are tried: a French key or a Spanish number may itself begin with letters.
  const readings = normalized.startsWith(prefix) ? [normalized, `${prefix}${normalized}`] : [`${prefix}${normalized}`];
  const newer = FORMATS_JSVAT_MISSES[country];
  return readings.some((reading) => checkVAT(reading, [rules]).isValidFormat || (newer?.test(reading) ?? false));
}
