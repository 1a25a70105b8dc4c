import { isCurrencyCode, minorUnits } from '@billing/reference-data';
import type { Language } from './texts.js';

/** Digit grouping and decimal mark of each document language (da: 1.234,56; en: 1,234.56). */
const SEPARATORS: Readonly<Record<Language, { group: string; decimal: string }>> = {
  en: { group: ',', decimal: '.' },
  da: { group: '.', decimal: ',' },
};

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A decimal as text ("-1234.5") written the language's way ("-1.234,5" in da), digit for digit:
 * never through a JS number, so nothing is rounded. Anything that is not a plain decimal is
 * returned as it is.
 */
export function formatNumber(value: string, language: Language): string {
  const match = DECIMAL.exec(value);
  if (!match) return value;
  const [, sign, whole, fraction] = match;
  const { group, decimal } = SEPARATORS[language];
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${sign}${grouped}${fraction === undefined ? '' : `${decimal}${fraction}`}`;
}

/**
 * A unit price with at least the currency's decimals ("100" → "100.00", ISK "1499" stays) and
 * every further exact digit it has ("29.997" stays: rounding it would not multiply to the amount).
 */
export function unitPrice(price: string, currency: string): string {
  const match = DECIMAL.exec(price);
  if (!match) return price;
  const decimals = isCurrencyCode(currency) ? minorUnits(currency) : 2;
  const fraction = (match[3] ?? '').padEnd(decimals, '0');
  return `${match[1]}${match[2]}${fraction === '' ? '' : `.${fraction}`}`;
}
