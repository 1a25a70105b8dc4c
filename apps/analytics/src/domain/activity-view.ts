/** An activity as the API shows it (api-spec Activity); decimals as text, plans by uuid. */
export interface ActivityView {
  uuid: string;
  account_uuid: string;
  account_code: string;
  company_name: string;
  subscription: string | null;
  invoice: string | null;
  date: Date;
  created_date: Date;
  updated_date: Date;
  type: string;
  is_manual: boolean;
  is_churn: boolean;
  deleted: boolean;
  ean_invoice: boolean;
  old_currency: string | null;
  new_currency: string | null;
  old_mrr_in_subscription_currency: string | null;
  new_mrr_in_subscription_currency: string | null;
  old_mrr: string | null;
  new_mrr: string | null;
  mrr_change: string | null;
  quantity_change: string | null;
  old_quantity: number | null;
  new_quantity: number | null;
  old_terms: string | null;
  new_terms: string | null;
  old_terms_name: string | null;
  new_terms_name: string | null;
  old_plan: string | null;
  new_plan: string | null;
  old_plan_name: string | null;
  new_plan_name: string | null;
}

/** An account activity as the API shows it (api-spec Account activity). */
export interface AccountActivityView {
  uuid: string;
  account_uuid: string;
  account_code: string;
  company_name: string;
  type: string;
  mrr_change: string;
  new_mrr: string | null;
  old_mrr: string | null;
  created_date: Date;
  date: Date;
  subscription: string | null;
  is_manual: boolean;
  deleted: boolean;
  churn_reason: string;
  account_first_subscription_start_date: Date | null;
}

/** Filters of the activity list (gaps.md §8), checked by the gateway. */
export interface ActivityListFilter {
  account?: string | undefined;
  uuid?: string | undefined;
  subscription_uuid?: string | undefined;
  types: string[];
  activity_types: string[];
  mrr_change_type?: string | undefined;
  is_manual?: boolean | undefined;
  deleted?: boolean | undefined;
  future?: boolean | undefined;
  created_date_gte?: Date | undefined;
  created_date_lte?: Date | undefined;
  updated_date_gte?: Date | undefined;
  updated_date_lte?: Date | undefined;
  date_gte?: Date | undefined;
  date_lte?: Date | undefined;
}

/** Filters of the account activity list. */
export interface AccountActivityListFilter {
  account?: string | undefined;
  uuid?: string | undefined;
  subscription_uuid?: string | undefined;
  is_manual?: boolean | undefined;
  future?: boolean | undefined;
  deleted?: boolean | undefined;
  types: string[];
  churn_reason?: string | undefined;
  created_date_gte?: Date | undefined;
  created_date_lte?: Date | undefined;
  date_gte?: Date | undefined;
  date_lte?: Date | undefined;
  first_start_gte?: Date | undefined;
  first_start_lte?: Date | undefined;
}
