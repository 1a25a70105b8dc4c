/** The subscription list's filters as total-mrr takes them (resolved by the gateway as for the list). */
export interface TotalMrrFilter {
  plan?: string | undefined;
  terms?: string | undefined;
  status?: string | undefined;
  collection_method?: string | undefined;
  set_to_expire?: boolean | undefined;
  has_custom_price?: boolean | undefined;
  /** Accounts to keep (filters answered from accounts data); undefined: no such filter. */
  account_in?: string[] | undefined;
  start_date_gte?: Date | undefined;
  start_date_lte?: Date | undefined;
  next_renewal_date_gte?: Date | undefined;
  next_renewal_date_lte?: Date | undefined;
  end_date_gte?: Date | undefined;
  end_date_lte?: Date | undefined;
  last_modified_date_gte?: Date | undefined;
  last_modified_date_lte?: Date | undefined;
}

/** True when no filter is set: the organization's maintained totals answer. */
export const isUnfiltered = (filter: TotalMrrFilter): boolean =>
  Object.values(filter).every((value) => value === undefined);

export interface TotalMrrView {
  total_mrr: string;
  future_mrr: string;
  pending_manual_renewal_mrr: string;
  subscriptions_count: number;
}

/** api-spec MRR row. */
export interface MrrRowView {
  month: Date;
  account_uuid: string;
  subscription_uuid: string;
  company_name: string;
  legal_country: string;
  collection_method: string;
  payment_terms: number | null;
  next_renewal_date: Date | null;
  terms_interval_type: string;
  terms_interval_count: number;
  currency: string;
  quantity: number;
  plan_name: string;
  plan_uuid: string;
  revenue_group_id: string | null;
  revenue_group_name: string | null;
  mrr: string;
  active: boolean;
}

export interface ActivityMonthView {
  month: string;
  activities: number;
  mrr_change: string;
}

export interface CohortView {
  cohort: string;
  accounts: number;
  starting_mrr: string;
  periods: Array<{ period: number; accounts: number; mrr: string }>;
}
