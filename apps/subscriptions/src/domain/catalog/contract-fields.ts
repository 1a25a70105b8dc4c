import type { WritableShape } from '@billing/domain-kit';
import type { FieldViolation } from '@billing/errors';
import { Decimal } from 'decimal.js';
import type { DiscountType } from '../pricing.js';

/**
 * Pure rules of contracts and their tiers (gaps.md §5) as the REST writes see them; pricing with
 * them is domain/pricing.ts and domain/contracts.ts. No I/O.
 */

export interface ContractFields {
  plan_terms: string;
  /** YYYY-MM-DD */
  start_date: string;
  /** YYYY-MM-DD; null: no end. */
  end_date: string | null;
  /** Months; 0: no commitment. */
  commitment_length: number;
  exclusive_tiers: boolean;
}

/** Create and PUT need plan_terms and start_date; end_date defaults to null (no end). */
export const CONTRACT_SHAPE: WritableShape<ContractFields> = {
  required: ['plan_terms', 'start_date'],
  defaults: { end_date: null, commitment_length: 0, exclusive_tiers: true },
};

export const END_BEFORE_START = 'Ensure this date is on or after start_date.';

/** Rules across fields, checked on the merged contract (so a PATCH of one date is checked too). */
export function contractViolations(fields: ContractFields): FieldViolation[] {
  // Validated YYYY-MM-DD dates order as text.
  if (fields.end_date !== null && fields.end_date < fields.start_date) {
    return [{ field: 'end_date', description: END_BEFORE_START }];
  }
  return [];
}

export interface TierFields {
  minimum_quantity: number;
  /** null: no upper bound. */
  maximum_quantity: number | null;
  /** Decimal text: percentage points, or (fixed) an amount off the unit price. */
  discount: string;
  discount_type: DiscountType;
}

/** Create and PUT need minimum_quantity, discount and discount_type; maximum_quantity defaults to null. */
export const TIER_SHAPE: WritableShape<TierFields> = {
  required: ['minimum_quantity', 'discount', 'discount_type'],
  defaults: { maximum_quantity: null },
};

export const MAXIMUM_BELOW_MINIMUM = 'Ensure this value is greater than or equal to minimum_quantity.';
export const PERCENTAGE_OVER_100 = 'Ensure this value is less than or equal to 100.';

/** Rules across fields, checked on the merged tier (a PATCH of discount_type alone is checked too). */
export function tierViolations(fields: TierFields): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (fields.maximum_quantity !== null && fields.maximum_quantity < fields.minimum_quantity) {
    violations.push({ field: 'maximum_quantity', description: MAXIMUM_BELOW_MINIMUM });
  }
  if (fields.discount_type === 'percentage' && new Decimal(fields.discount).greaterThan(100)) {
    violations.push({ field: 'discount', description: PERCENTAGE_OVER_100 });
  }
  return violations;
}
