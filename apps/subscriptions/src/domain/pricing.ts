import { type CurrencyCode, type Decimal, MoneyDecimal, money, roundToMinorUnit } from '@billing/money';

export const DISCOUNT_TYPES = ['percentage', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** A contract tier (gaps §5). `maximum_quantity` null: no upper bound. Both bounds inclusive. */
export interface Tier {
  minimum_quantity: number;
  maximum_quantity: number | null;
  /** Percentage points (10 = 10 %) or, for 'fixed', an amount off the unit price in the terms' currency. */
  discount: Decimal | string;
  discount_type: DiscountType;
}

/** The pricing-relevant part of a contract that applies to the subscription (see contracts.ts). */
export interface ContractPricing {
  /** true (default): only the best matching tier applies; false: every matching tier applies. */
  exclusive_tiers: boolean;
  tiers: readonly Tier[];
}

export interface PriceInput {
  /** The plan terms' price. */
  terms_price: Decimal | string;
  currency: CurrencyCode;
  quantity: number;
  /** The subscription's override_price; replaces the terms price, discounts still apply. */
  override_price?: Decimal | string | null;
  contract?: ContractPricing | null;
}

export interface TierApplied {
  minimum_quantity: number;
  maximum_quantity: number | null;
  discount: Decimal;
  discount_type: DiscountType;
  /** What this tier took off one unit (exact, not rounded). */
  amount_off_per_unit: Decimal;
}

/**
 * A priced line a person can check by hand:
 * discounted_unit_price = unit_price − Σ tiers_applied.amount_off_per_unit (never below 0),
 * subtotal = round(discounted_unit_price × quantity) to the currency's minor unit, half-up.
 * Unit prices are exact (unrounded); only line amounts are rounded.
 */
export interface PriceBreakdown {
  currency: CurrencyCode;
  unit_price: Decimal;
  price_source: 'terms' | 'override';
  exclusive_tiers: boolean | null;
  tiers_applied: TierApplied[];
  discounted_unit_price: Decimal;
  quantity: number;
  subtotal: Decimal;
}

export const MAX_QUANTITY = 2_147_483_647;

export function assertQuantity(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 0 || quantity > MAX_QUANTITY) {
    throw new RangeError(`quantity must be an integer from 0 to ${MAX_QUANTITY}, got ${quantity}`);
  }
}

export function assertTier(tier: Tier): void {
  const { minimum_quantity: min, maximum_quantity: max } = tier;
  if (!Number.isSafeInteger(min) || min < 0) throw new RangeError(`minimum_quantity must be an integer >= 0`);
  if (max !== null && (!Number.isSafeInteger(max) || max < min)) {
    throw new RangeError('maximum_quantity must be null or an integer >= minimum_quantity');
  }
  if (!DISCOUNT_TYPES.includes(tier.discount_type)) throw new RangeError(`Unknown discount_type ${tier.discount_type}`);
  const discount = money(tier.discount);
  if (discount.isNegative()) throw new RangeError('discount must not be negative');
  if (tier.discount_type === 'percentage' && discount.greaterThan(100)) {
    throw new RangeError('a percentage discount must not exceed 100');
  }
}

/** A tier matches when minimum_quantity <= quantity <= maximum_quantity (no upper bound when null). */
export function tierMatches(tier: Tier, quantity: number): boolean {
  return quantity >= tier.minimum_quantity && (tier.maximum_quantity === null || quantity <= tier.maximum_quantity);
}

/** What `tier` takes off one unit priced `price` (never more than the price itself). */
function amountOff(tier: Tier, price: Decimal): Decimal {
  const discount = money(tier.discount);
  const off = tier.discount_type === 'percentage' ? price.times(discount).dividedBy(100) : discount;
  return MoneyDecimal.min(off, price);
}

/**
 * The tiers that apply, in the order they are applied.
 * - exclusive_tiers true: the single best matching tier, "best" being the one with the HIGHEST
 *   minimum_quantity (the most specific volume step the quantity reached); between tiers with
 *   the same minimum_quantity, the one taking most off the unit price, then the first listed.
 * - exclusive_tiers false: every matching tier, in ascending minimum_quantity (stable for ties).
 */
export function selectTiers(contract: ContractPricing, quantity: number, unitPrice: Decimal): Tier[] {
  const matching = contract.tiers
    .map((tier, index) => ({ tier, index }))
    .filter(({ tier }) => tierMatches(tier, quantity))
    .sort((a, b) => a.tier.minimum_quantity - b.tier.minimum_quantity || a.index - b.index);
  if (!contract.exclusive_tiers) return matching.map(({ tier }) => tier);
  let best: Tier | undefined;
  for (const { tier } of matching) {
    if (
      !best ||
      tier.minimum_quantity > best.minimum_quantity ||
      (tier.minimum_quantity === best.minimum_quantity &&
        amountOff(tier, unitPrice).greaterThan(amountOff(best, unitPrice)))
    ) {
      best = tier;
    }
  }
  return best ? [best] : [];
}

/**
 * Prices one subscription line: unit price = override_price ?? terms price; then the contract's
 * tiers. Non-exclusive tiers apply one after the other in ascending minimum_quantity, each to
 * the price left by the previous ones (a percentage takes its share of the running price, a fixed
 * tier its amount), and the price never goes below 0.
 */
export function priceLine(input: PriceInput): PriceBreakdown {
  assertQuantity(input.quantity);
  const override = input.override_price ?? null;
  const unitPrice = money(override ?? input.terms_price);
  if (unitPrice.isNegative()) throw new RangeError('a unit price must not be negative');
  const contract = input.contract ?? null;
  for (const tier of contract?.tiers ?? []) assertTier(tier);

  const tiersApplied: TierApplied[] = [];
  let running = unitPrice;
  for (const tier of contract ? selectTiers(contract, input.quantity, unitPrice) : []) {
    const off = amountOff(tier, running);
    tiersApplied.push({
      minimum_quantity: tier.minimum_quantity,
      maximum_quantity: tier.maximum_quantity,
      discount: money(tier.discount),
      discount_type: tier.discount_type,
      amount_off_per_unit: off,
    });
    running = running.minus(off);
  }
  return {
    currency: input.currency,
    unit_price: unitPrice,
    price_source: override === null ? 'terms' : 'override',
    exclusive_tiers: contract ? contract.exclusive_tiers : null,
    tiers_applied: tiersApplied,
    discounted_unit_price: running,
    quantity: input.quantity,
    subtotal: roundToMinorUnit(running.times(input.quantity), input.currency),
  };
}
