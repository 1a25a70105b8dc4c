import type { PlanSummary, PlanTermsView } from './catalog/plan-view.js';
import type { SubscriptionFields } from './subscription-fields.js';

/** A waiting term or quantity change, as a subscription shows it. */
export interface ScheduledChangeView {
  uuid: string;
  /** When it takes effect. */
  date: Date;
  /** The new terms' uuid. */
  terms: string;
  quantity: number;
  change_type: string;
}

/**
 * A subscription as the service presents it: the replies of its API and the snapshot in
 * subscription.changed. Its writable fields as stored (the override price presented), and what the
 * service keeps of it. The gateway adds the embedded account and churn reason.
 */
export interface SubscriptionView extends Omit<SubscriptionFields, 'terms' | 'start_date'> {
  uuid: string;
  /** The account's uuid. */
  account: string;
  terms: PlanTermsView;
  plan: PlanSummary;
  start_date: Date;
  end_date: Date | null;
  created_date: Date;
  last_modified_date: Date;
  next_renewal_date: Date | null;
  last_renewal_date: Date | null;
  base_renewal_date: Date | null;
  original_start_date: Date;
  status: string;
  /** SubscriptionFigures: decimals as text in the subscription's currency. */
  current_mrr: string;
  committed_mrr: string;
  final_price: string;
  /** The waiting change, if any (at most one). */
  scheduled_changes: ScheduledChangeView[];
  /** The pending cancellation of a not_renewing subscription. */
  cancellation_type: string | null;
  cancel_at: Date | null;
  /** 1 when created, one more with every committed change (see db/subscription-version.ts). */
  version: number;
}
