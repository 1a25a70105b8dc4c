import type { CurrencyCode } from '@billing/money';
import type { Pricing } from '../charges.js';
import type { Interval } from '../periods.js';
import type { Tier } from '../pricing.js';
import type { ChargeLineRecord } from './charge-records.js';

export {
  CANCELLATION_TYPES,
  type CancellationType,
  CHANGE_TYPES,
  type ChangeType,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
} from '@billing/reference-data';

import type { ChangeType, SubscriptionStatus } from '@billing/reference-data';

/** Plan terms as the engine needs them, read fresh from the catalog whenever the engine runs. */
export interface TermsSnapshot {
  uuid: string;
  plan: string;
  price: string;
  currency: CurrencyCode;
  interval: Interval;
  backwards_charging: boolean;
}

/** The contract whose tiers were fixed for the subscription at its last creation, change or renewal. */
export interface FixedContract {
  uuid: string;
  exclusive_tiers: boolean;
  tiers: Tier[];
}

/** What the subscription pays: terms, quantity, override and the fixed contract. */
export interface SubscriptionPricing {
  terms: TermsSnapshot;
  quantity: number;
  override_price: string | null;
  contract: FixedContract | null;
}

/** A term or quantity change waiting for its moment (at_specified_time, at_renewal). */
export interface PendingChange {
  uuid: string;
  at: Date;
  change_type: Exclude<ChangeType, 'immediate'>;
  terms: TermsSnapshot;
  quantity: number;
  early_renewal: boolean;
}

/** A cancellation waiting for its moment; the subscription is `not_renewing` meanwhile. */
export interface PendingCancellation {
  type: 'at_renewal' | 'at_specified_time';
  at: Date;
}

/**
 * Everything the engine decides from. Periods are counted from `base` (base_renewal_date): the
 * current one is `period_n`; `charged_through` is the start of the last period a forward charge was
 * made for (one period ahead with pre_renewal_days_offset).
 */
export interface SubscriptionState {
  status: SubscriptionStatus;
  time_zone: string;
  pricing: SubscriptionPricing;
  is_auto_renew_enabled: boolean;
  pre_renewal_days_offset: number;
  start_date: Date;
  base: Date | null;
  period_n: number;
  charged_through: Date | null;
  last_renewal: Date | null;
  next_renewal: Date | null;
  end_date: Date | null;
  cancellation: PendingCancellation | null;
  change: PendingChange | null;
  /** Backwards terms: the last change inside the current period (earlier days were charged then). */
  since: Date | null;
  /** Backwards terms: lines of the current period waiting for its end-of-period document. */
  pending_lines: ChargeLineRecord[];
}

/** The engine's Pricing for the charge functions. */
export function chargePricing(pricing: SubscriptionPricing): Pricing {
  return {
    terms: {
      price: pricing.terms.price,
      currency: pricing.terms.currency,
      interval: pricing.terms.interval,
      backwards_charging: pricing.terms.backwards_charging,
    },
    quantity: pricing.quantity,
    override_price: pricing.override_price,
    contract: pricing.contract,
  };
}

/** A status in which the subscription is running (it has a current period). */
export function isRunning(status: SubscriptionStatus): boolean {
  return status === 'active' || status === 'not_renewing';
}
