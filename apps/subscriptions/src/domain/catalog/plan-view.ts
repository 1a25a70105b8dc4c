import type { PlanFields, PlanTermsFields } from './plan-fields.js';

/**
 * Plan terms as the service presents them (API replies, catalog events, embedded in
 * subscriptions): their fields as stored, the price presented (presentPrice).
 */
export interface PlanTermsView extends PlanTermsFields {
  uuid: string;
}

/** A plan with its terms (oldest first). */
export interface PlanView extends PlanFields {
  uuid: string;
  planterms: PlanTermsView[];
}

/** A plan without its terms, as a subscription embeds it beside its own terms. */
export type PlanSummary = Omit<PlanView, 'planterms'>;
