/**
 * What a list of invoices is narrowed to (api-spec "Invoices" filters); every condition given must
 * hold. Uuids that are not uuids match nothing.
 */
export interface InvoiceListFilter {
  uuid?: string | undefined;
  /** The number as text. */
  invoice_number?: string | undefined;
  /** An invoice number, or an account of `search_accounts` (the gateway resolved the text to them). */
  search?: string | undefined;
  search_accounts?: readonly string[] | undefined;
  account?: string | undefined;
  account_not?: string | undefined;
  status?: string | undefined;
  status_not?: string | undefined;
  total_gt?: string | undefined;
  total_lt?: string | undefined;
  /** Invoices with a line of this subscription. */
  subscription_uuid?: string | undefined;
  currency?: string | undefined;
  collection_method?: string | undefined;
  kickback_status?: string | undefined;
  balance?: string | undefined;
  imported?: boolean | undefined;
  import_source?: string | undefined;
  /** YYYY-MM-DD bounds, inclusive. */
  date_lte?: string | undefined;
  date_gte?: string | undefined;
  due_date_lte?: string | undefined;
  due_date_gte?: string | undefined;
  created_date_lte?: Date | undefined;
  created_date_gte?: Date | undefined;
  last_modified_date_lte?: Date | undefined;
  last_modified_date_gte?: Date | undefined;
  /** Handed to debt collection: nothing is, so true matches no invoice. */
  debt_collection?: boolean | undefined;
}

/** What a list of invoice lines is narrowed to (issued invoices' lines only). */
export interface InvoiceLineListFilter {
  invoice?: string | undefined;
  account?: string | undefined;
  subscription?: string | undefined;
}
