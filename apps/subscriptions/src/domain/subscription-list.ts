/**
 * What a list of subscriptions is narrowed to (the REST list's filters); every condition given
 * must hold. Uuids that are not uuids match nothing.
 */
export interface SubscriptionListFilter {
  account?: string | undefined;
  /** The plan's uuid: subscriptions on any of its terms. */
  plan?: string | undefined;
  terms?: string | undefined;
  status?: string | undefined;
  collection_method?: string | undefined;
  /** true: only not_renewing; false: all but not_renewing. */
  set_to_expire?: boolean | undefined;
  /** Whether an override price is set. */
  has_custom_price?: boolean | undefined;
  start_date_lte?: Date | undefined;
  start_date_gte?: Date | undefined;
  next_renewal_date_lte?: Date | undefined;
  next_renewal_date_gte?: Date | undefined;
  end_date_lte?: Date | undefined;
  end_date_gte?: Date | undefined;
  last_modified_date_lte?: Date | undefined;
  last_modified_date_gte?: Date | undefined;
  /** Only these accounts (the gateway resolved the account filters to them); absent: any account. */
  account_in?: readonly string[] | undefined;
}
