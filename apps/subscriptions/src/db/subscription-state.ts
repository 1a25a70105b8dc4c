import type { SubscriptionState, SubscriptionStatus, TermsSnapshot } from '../domain/lifecycle/index.js';
import type { SubscriptionRow } from './entities/subscription.entity.js';

/**
 * Between a subscription row and the engine's state. Terms come fresh from the catalog (a new
 * price applies from the next document); the contract stays as fixed in the row.
 */
export function stateOf(row: SubscriptionRow, termsById: (uuid: string) => TermsSnapshot): SubscriptionState {
  const change = row.scheduled_change ?? null;
  return {
    status: row.status as SubscriptionStatus,
    time_zone: row.time_zone,
    pricing: {
      terms: termsById(row.plan_terms_id),
      quantity: row.quantity,
      override_price: row.override_price ?? null,
      contract: row.contract ?? null,
    },
    is_auto_renew_enabled: row.is_auto_renew_enabled,
    pre_renewal_days_offset: row.pre_renewal_days_offset,
    start_date: row.start_date,
    base: row.base_renewal_date ?? null,
    period_n: row.period_n,
    charged_through: row.charged_through ?? null,
    last_renewal: row.last_renewal_date ?? null,
    next_renewal: row.next_renewal_date ?? null,
    end_date: row.end_date ?? null,
    cancellation:
      row.cancellation_type && row.cancel_at
        ? { type: row.cancellation_type as 'at_renewal' | 'at_specified_time', at: row.cancel_at }
        : null,
    change: change
      ? {
          uuid: change.uuid,
          at: new Date(change.at),
          change_type: change.change_type,
          terms: termsById(change.terms_id),
          quantity: change.quantity,
          early_renewal: change.early_renewal,
        }
      : null,
    since: row.since ?? null,
    pending_lines: row.pending_lines,
  };
}

/** The row's engine columns from a state; `dueAt` is when the scheduler must look again. */
export function stateColumns(state: SubscriptionState, dueAt: Date | null): Partial<SubscriptionRow> {
  return {
    status: state.status,
    plan_terms_id: state.pricing.terms.uuid,
    quantity: state.pricing.quantity,
    override_price: state.pricing.override_price,
    contract: state.pricing.contract,
    start_date: state.start_date,
    base_renewal_date: state.base,
    period_n: state.period_n,
    charged_through: state.charged_through,
    last_renewal_date: state.last_renewal,
    next_renewal_date: state.next_renewal,
    end_date: state.end_date,
    cancellation_type: state.cancellation?.type ?? null,
    cancel_at: state.cancellation?.at ?? null,
    scheduled_change: state.change
      ? {
          uuid: state.change.uuid,
          at: state.change.at.toISOString(),
          change_type: state.change.change_type,
          terms_id: state.change.terms.uuid,
          quantity: state.change.quantity,
          early_renewal: state.change.early_renewal,
        }
      : null,
    since: state.since,
    pending_lines: state.pending_lines,
    due_at: dueAt,
  };
}
