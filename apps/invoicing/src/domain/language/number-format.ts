import { isCurrencyCode, minorUnits } from '@billing/reference-data';

export { formatNumber } from '@billing/mail';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

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
