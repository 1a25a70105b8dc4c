import { type CurrencyCode, currencyDecimals, type Decimal, formatAmount, roundToMinorUnit } from '@billing/money';
import { formatVatRate, type VatDecision, type VatReason, vatAmount } from '@billing/tax';
import type { PriceBreakdown } from './pricing.js';

/** The answer of POST /api/v1/plans/calculate/ (gaps.md §5): decimal texts, nothing stored. */
export interface PriceQuote {
  currency: string;
  unit_price: string;
  discount: string;
  quantity: number;
  subtotal: string;
  vat_rate: string;
  vat: string;
  total: string;
  reverse_charge: boolean;
  vat_reason: VatReason;
}

/**
 * The quote a person can check by hand:
 * - unit_price: the terms' exact price, with at least the currency's decimals;
 * - discount: (unit price − discounted unit price) × quantity, rounded;
 * - subtotal: discounted unit price × quantity, rounded (the priced line of pricing.ts);
 * - vat: subtotal × vat_rate / 100, rounded; total: subtotal + vat.
 * Rounding is to the currency's minor unit, half-up, each amount once.
 */
export function quotePrice(line: PriceBreakdown, vat: VatDecision): PriceQuote {
  const { currency } = line;
  const discount = roundToMinorUnit(line.unit_price.minus(line.discounted_unit_price).times(line.quantity), currency);
  const vatValue = vatAmount(line.subtotal, vat.rate, currency);
  return {
    currency,
    unit_price: exactPrice(line.unit_price, currency),
    discount: formatAmount(discount, currency),
    quantity: line.quantity,
    subtotal: formatAmount(line.subtotal, currency),
    vat_rate: formatVatRate(vat.rate),
    vat: formatAmount(vatValue, currency),
    total: formatAmount(line.subtotal.plus(vatValue), currency),
    reverse_charge: vat.reverse_charge,
    vat_reason: vat.reason,
  };
}

/** "100.00", "9.995", "1500" (ISK): never rounded, so unit price × quantity can be checked. */
function exactPrice(price: Decimal, currency: CurrencyCode): string {
  return price.toFixed(Math.max(currencyDecimals(currency), price.decimalPlaces()));
}
