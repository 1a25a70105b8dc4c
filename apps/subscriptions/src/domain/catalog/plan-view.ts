/** Plan terms as the service presents them: API replies, catalog events, embedded in subscriptions. */
export interface PlanTermsView {
  uuid: string;
  plan: string;
  code: string;
  interval_type: string;
  interval_count: number;
  /** presentPrice of the stored price. */
  price: string;
  currency: string;
  backwards_charging: boolean;
  active: boolean;
  revenue_group: string | null;
}

/** A plan with its terms (oldest first). */
export interface PlanView {
  uuid: string;
  name: string;
  code: string;
  description: string;
  collect_vat: boolean;
  vat_type: string;
  planterms: PlanTermsView[];
}

/** A plan without its terms, as a subscription embeds it beside its own terms. */
export type PlanSummary = Omit<PlanView, 'planterms'>;
