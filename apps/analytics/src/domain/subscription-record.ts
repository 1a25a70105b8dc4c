import type { Pricing } from './pricing.js';

/** The subscription list columns analytics keeps beside each subscription's MRR (total-mrr filters). */
export interface SubscriptionRecord {
  uuid: string;
  account: string;
  status: string;
  collection_method: string;
  has_custom_price: boolean;
  payment_terms: number | null;
  start_date: Date | null;
  original_start_date: Date | null;
  next_renewal_date: Date | null;
  end_date: Date | null;
  last_modified_date: Date;
  interval_type: string;
  interval_count: number;
  churn_reason: string | null;
  custom_churn_reason: string | null;
  /** Orders a subscription's states: only a newer or equal one replaces the stored one. */
  version: number;
  pricing: Pricing;
  /** The pricing after the waiting change (null: none waits). */
  scheduled: Pricing | null;
}
