/** Days to pay, as a subscription, an account or an organization sets them; unset: null or undefined. */
type Terms = number | null | undefined;

/**
 * The payment terms that apply to a subscription's invoices (api-spec `effective_payment_terms`,
 * gaps.md §7): the subscription's own, else its account's default, else the organization's. One
 * rule for the invoices invoicing issues, the subscriptions the gateway shows, and what the
 * accounts service sends with an account's subscriptions.
 */
export function effectivePaymentTerms<Organization extends Terms>(
  subscription: Terms,
  account: Terms,
  organization: Organization,
): number | Organization {
  return subscription ?? account ?? organization;
}

/** Whether effectivePaymentTerms falls through to the organization's: neither the subscription nor its account sets them. */
export function takesOrganizationPaymentTerms(subscription: Terms, account: Terms): boolean {
  return (subscription ?? account ?? null) === null;
}
