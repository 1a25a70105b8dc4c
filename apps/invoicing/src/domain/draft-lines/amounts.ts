import { type CurrencyCode, type Decimal, money, roundToMinorUnit } from '@billing/money';

/** What a draft line's amounts depend on (a stored line satisfies draftLineViolations). */
export interface DraftLinePricing {
  price: string;
  quantity: string;
  discount_percentage: string | null;
  discount_fixed_per_quantity: string | null;
  discount_fixed_total: string | null;
  currency: CurrencyCode;
}

export interface DraftLineAmounts {
  /**
   * The unit price after the discount, unrounded: exact, except for a fixed total discount that
   * the quantity does not divide, which is the quotient to 40 significant digits.
   */
  unit_price_after_discount: Decimal;
  /** price × quantity − discount, rounded once to the currency's minor unit, half-up. */
  subtotal: Decimal;
  /** The discount of the whole line, rounded to the currency's minor unit, half-up. */
  discount: Decimal;
}

/**
 * A draft line's amounts on an invoice. The subtotal is computed from the exact gross and the
 * exact discount and rounded once; it is never unit price × quantity re-rounded, so a fixed total
 * discount that does not divide evenly costs no cent.
 */
export function draftLineAmounts(line: DraftLinePricing): DraftLineAmounts {
  const price = money(line.price);
  const quantity = money(line.quantity);
  const gross = price.times(quantity);
  const { unit, discount } = discountOf(line, price, quantity, gross);
  return {
    unit_price_after_discount: unit,
    subtotal: roundToMinorUnit(gross.minus(discount), line.currency),
    discount: roundToMinorUnit(discount, line.currency),
  };
}

function discountOf(
  line: DraftLinePricing,
  price: Decimal,
  quantity: Decimal,
  gross: Decimal,
): { unit: Decimal; discount: Decimal } {
  if (line.discount_percentage !== null) {
    const share = money(line.discount_percentage).dividedBy(100);
    return { unit: price.minus(price.times(share)), discount: gross.times(share) };
  }
  if (line.discount_fixed_per_quantity !== null) {
    const perUnit = money(line.discount_fixed_per_quantity);
    return { unit: price.minus(perUnit), discount: perUnit.times(quantity) };
  }
  if (line.discount_fixed_total !== null) {
    const total = money(line.discount_fixed_total);
    return { unit: gross.minus(total).dividedBy(quantity), discount: total };
  }
  return { unit: price, discount: money('0') };
}
