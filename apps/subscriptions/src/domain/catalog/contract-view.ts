import type { DiscountType } from '../pricing.js';

/** A contract tier as the service presents it. */
export interface TierView {
  id: string;
  minimum_quantity: number;
  /** null: no upper bound. */
  maximum_quantity: number | null;
  /** presentPrice of the stored discount. */
  discount: string;
  discount_type: DiscountType;
}

/** A contract with its tiers (oldest first): API replies and contract events. */
export interface ContractView {
  uuid: string;
  account: string;
  plan_terms: string;
  /** YYYY-MM-DD */
  start_date: string;
  /** YYYY-MM-DD; null: no end. */
  end_date: string | null;
  commitment_length: number;
  exclusive_tiers: boolean;
  tiers: TierView[];
}
