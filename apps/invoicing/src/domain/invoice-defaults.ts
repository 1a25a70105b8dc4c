/**
 * api-spec generate_invoice: `collection_method` defaults to the account's default collection
 * method, then the organization's (as payment terms default, domain-kit effectivePaymentTerms).
 */
export function effectiveCollectionMethod(
  requested: string | null | undefined,
  account: string | null | undefined,
  organization: string,
): string {
  return requested || account || organization;
}
