import type { RequestContext } from '@billing/observability';
import type { subscriptionsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { instantRange } from '../../http/index.js';
import { SUBSCRIPTION_DATE_FILTERS, type SubscriptionQuery } from './subscription-schemas.js';

type FilterClients = Pick<ServiceClients, 'accounts'>;

/** The organization's time zone, asked of the accounts service only when the call's context lacks it. */
export const organizationTimeZoneOf =
  (clients: Pick<ServiceClients, 'identity'>, context: RequestContext) => async (): Promise<string> =>
    context.organizationTimeZone ?? (await clients.identity.call('getOrganization', {})).organization!.time_zone;

/** The subscription list's filter as the service takes it, or null when nothing can match. */
export type ResolvedFilter = subscriptionsV1.SubscriptionFilter | null;

const hasOrgTzBound = (query: SubscriptionQuery): boolean =>
  SUBSCRIPTION_DATE_FILTERS.some(
    (name) => query[`${name}__org_tz_gte`] !== undefined || query[`${name}__org_tz_lte`] !== undefined,
  );

/**
 * Turns the validated query into the service's filter. Filters on accounts data (`account` by
 * code, `has_recipient_receiving_invoices`, `account_active_payment_method`) are answered by the
 * accounts service in one ListAccountUuids call and passed on as `account_in`; when no account
 * matches (an unknown code included, as django-filter answers an unknown slug with an empty list)
 * the result is null and the list is empty. `__org_tz_` bounds are whole days on the
 * organization's wall clock; its time zone is read only when such a bound is given.
 */
export async function resolveSubscriptionFilter(
  clients: FilterClients,
  query: SubscriptionQuery,
  organizationTimeZone: () => Promise<string>,
): Promise<ResolvedFilter> {
  const filter: subscriptionsV1.SubscriptionFilter = {
    plan: query.plan,
    terms: query.terms,
    status: query.status,
    collection_method: query.collection_method,
    set_to_expire: query.set_to_expire,
    has_custom_price: query.has_custom_price,
    account_in: [],
    account_in_set: false,
  };
  const timeZone = hasOrgTzBound(query) ? await organizationTimeZone() : 'UTC';
  for (const name of SUBSCRIPTION_DATE_FILTERS) {
    const range = instantRange(query, name, timeZone);
    filter[`${name}_gte`] = range.gte;
    filter[`${name}_lte`] = range.lte;
  }
  const byAccounts =
    query.account !== undefined ||
    query.has_recipient_receiving_invoices !== undefined ||
    query.account_active_payment_method !== undefined;
  if (byAccounts) {
    const { uuids } = await clients.accounts.call('listAccountUuids', {
      filter: {
        code: query.account,
        has_recipient_receiving_invoices: query.has_recipient_receiving_invoices,
        active_payment_method: query.account_active_payment_method,
      },
    });
    if (uuids.length === 0) return null;
    filter.account_in = uuids;
    filter.account_in_set = true;
  }
  return filter;
}
