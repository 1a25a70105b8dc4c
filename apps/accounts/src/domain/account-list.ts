/** Filters of the account list, typed; unset means no filter. */
export interface AccountListFilter {
  uuid?: string;
  code?: string;
  type?: string;
  is_getting_reminders?: boolean;
  is_archived?: boolean;
  override_business_entity?: string;
  search?: string;
  legal_country?: string;
  ean_invoicing?: boolean;
  has_recipient_receiving_invoices?: boolean;
  register_status?: string;
  created_date_lte?: Date;
  created_date_gte?: Date;
  last_modified_date_lte?: Date;
  last_modified_date_gte?: Date;
  subscription_status?: string;
  subscription_collection_method?: string;
  subscription_set_to_expire?: boolean;
  balance?: string;
  active_payment_method?: string;
  reseller_program?: boolean;
  registered_for_direct_debit?: boolean;
}

/** Orderable fields of the account list (REST name → column); the default is oldest first. */
export const ACCOUNT_ORDERING: Readonly<Record<string, string>> = {
  code: 'code',
  company_name: 'company_name',
  legal_country: 'legal_country',
  created_date: 'created_at',
  last_modified_date: 'updated_at',
};

export const DEFAULT_ACCOUNT_ORDERING = 'created_date';
