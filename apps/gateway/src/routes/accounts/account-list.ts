import type { IncomingHttpHeaders } from 'node:http';
import type { accountsV1 } from '@billing/proto';
import type { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { fieldsHeaderKeeps, instantRange } from '../../http/index.js';
import { presentAccountsWithSubscriptions } from '../subscriptions/account-subscription-sets.js';
import { presentDraftLineSet } from './account-draft-line-sets.js';
import type { AccountFilters } from './account-schemas.js';

/** The account list's validated query as the accounts service's filter. */
export function accountListFilter(query: z.output<typeof AccountFilters>): accountsV1.AccountFilter {
  const created = instantRange(query, 'created_date');
  const modified = instantRange(query, 'last_modified_date');
  return {
    uuid: query.uuid,
    code: query.code,
    type: query.type,
    is_getting_reminders: query.is_getting_reminders,
    is_archived: query.is_archived,
    override_business_entity: query.override_business_entity,
    search: query.search,
    legal_country: query.legal_country,
    ean_invoicing: query.ean_invoicing,
    has_recipient_receiving_invoices: query.has_recipient_receiving_invoices,
    register_status: query.register_status,
    created_date_lte: created.lte,
    created_date_gte: created.gte,
    last_modified_date_lte: modified.lte,
    last_modified_date_gte: modified.gte,
    subscription_status: query.subscription_status,
    subscription_collection_method: query.subscription_collection_method,
    subscription_set_to_expire: query.subscription_set_to_expire,
    balance: query.balance === undefined ? undefined : String(query.balance),
    active_payment_method: query.active_payment_method,
    reseller_program: query.reseller_program,
    registered_for_direct_debit: query.registered_for_direct_debit,
  };
}

/**
 * Account reads (list, detail, update, export) present accounts through this, with their
 * subscription_set and draftinvoiceline_set: the accounts service sends both with each account,
 * and what the subscriptions embed with the reply, so a read is one call. `Fields` may leave
 * either set out (then it is not presented at all).
 */
export function presentAccountsWithSets(clients: Pick<ServiceClients, 'accounts' | 'churnReasons' | 'identity'>) {
  const withSubscriptionSets = presentAccountsWithSubscriptions(clients);
  return async (
    found: readonly accountsV1.Account[],
    embeds: accountsV1.SubscriptionSetEmbeds | undefined,
    headers: IncomingHttpHeaders,
  ) => {
    const presented = await withSubscriptionSets(found, embeds, headers);
    if (!fieldsHeaderKeeps(headers, 'draftinvoiceline_set')) return presented;
    return presented.map((account, index) => ({
      ...account,
      draftinvoiceline_set: presentDraftLineSet(found[index]!),
    }));
  };
}
