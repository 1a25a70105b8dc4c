import { baseConversion, type OrganizationMoney } from '../domain/base-currency.js';
import { presentPrice } from '../domain/catalog/prices.js';
import { type SubscriptionState, subscriptionFigures } from '../domain/lifecycle/index.js';
import type { SubscriptionView } from '../domain/subscription-view.js';
import type { SubscriptionRow } from './entities/subscription.entity.js';
import { type CatalogEntry, embeddedPlan, embeddedTerms } from './subscription-catalog.js';
import { subscriptionFieldsOf } from './subscription-fields.js';

/**
 * A stored subscription, its engine state (for its figures), its catalog entry and its
 * organization's money settings (MRR in the base currency), as the service presents it.
 */
export function subscriptionView(
  row: SubscriptionRow,
  state: SubscriptionState,
  world: {
    entry(termsId: string): CatalogEntry;
    organization(organizationId: string): OrganizationMoney | null;
  },
): SubscriptionView {
  const entry = world.entry(row.plan_terms_id);
  const toBase = baseConversion(
    world.organization(row.organization_id),
    state.pricing.terms.currency,
    state.last_renewal ?? state.start_date,
  );
  const figures = subscriptionFigures(state, toBase);
  const change = row.scheduled_change ?? null;
  return {
    ...subscriptionFieldsOf(row),
    uuid: row.id,
    account: row.account_id,
    terms: embeddedTerms(entry),
    plan: embeddedPlan(entry),
    start_date: row.start_date,
    end_date: row.end_date ?? null,
    created_date: row.created_at,
    last_modified_date: row.updated_at,
    next_renewal_date: row.next_renewal_date ?? null,
    last_renewal_date: row.last_renewal_date ?? null,
    base_renewal_date: row.base_renewal_date ?? null,
    original_start_date: row.original_start_date,
    override_price: row.override_price ? presentPrice(row.override_price) : null,
    status: row.status,
    current_mrr: figures.current_mrr,
    committed_mrr: figures.committed_mrr,
    final_price: figures.final_price,
    scheduled_changes: change
      ? [
          {
            uuid: change.uuid,
            date: new Date(change.at),
            terms: change.terms_id,
            quantity: change.quantity,
            change_type: change.change_type,
          },
        ]
      : [],
    cancellation_type: row.cancellation_type ?? null,
    cancel_at: row.cancel_at ?? null,
    version: row.version,
  };
}
