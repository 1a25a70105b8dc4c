import type { Write } from '@billing/domain-kit';
import type { subscriptionsV1 } from '@billing/proto';
import type { SubscriptionFields } from '../domain/subscription-fields.js';
import type { SubscriptionListFilter } from '../domain/subscription-list.js';
import type { SubscriptionView } from '../domain/subscription-view.js';
import { planTermsMessage } from './catalog-mapper.js';

/** proto optional fields are `undefined` when unset; the views say null. */
const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** The subscription as the proto carries it (replies, and the snapshot of subscription.changed). */
export function subscriptionMessage(view: SubscriptionView): subscriptionsV1.Subscription {
  return {
    ...view,
    terms: planTermsMessage(view.terms),
    plan: { ...view.plan, planterms: [] },
    end_date: orUndefined(view.end_date),
    next_renewal_date: orUndefined(view.next_renewal_date),
    last_renewal_date: orUndefined(view.last_renewal_date),
    base_renewal_date: orUndefined(view.base_renewal_date),
    payment_terms: orUndefined(view.payment_terms),
    invoice_supplement: orUndefined(view.invoice_supplement),
    override_price: orUndefined(view.override_price),
    churn_reason: orUndefined(view.churn_reason),
    custom_churn_reason: orUndefined(view.custom_churn_reason),
    cancellation_type: orUndefined(view.cancellation_type),
    cancel_at: orUndefined(view.cancel_at),
  };
}

/** A REST write: the present field names plus the message; present-but-unset is null. */
export function subscriptionWrite(
  input: subscriptionsV1.SubscriptionInput | undefined,
  presentFields: string[],
): Write<SubscriptionFields> {
  const message = (input ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = message[field] === undefined ? null : message[field];
  return { values: values as Write<SubscriptionFields>['values'], present: new Set(presentFields) };
}

/** The list's filters; `account_in` only when the gateway set it (`account_in_set`: an empty set matches none). */
export function subscriptionListFilter(filter: subscriptionsV1.SubscriptionFilter | undefined): SubscriptionListFilter {
  if (!filter) return {};
  const { account_in, account_in_set, ...conditions } = filter;
  return account_in_set ? { ...conditions, account_in } : conditions;
}
