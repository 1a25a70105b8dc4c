import type { invoicingV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { instantRange } from '../../http/index.js';
import { kickbackEnabled } from './invoice-embeds.js';
import type { InvoiceQuery } from './invoice-schemas.js';

type FilterClients = Pick<ServiceClients, 'accounts' | 'identity'>;

/** The later of two YYYY-MM-DD dates (both bounds must hold). */
const laterDate = (a: string | undefined, b: string | undefined): string | undefined =>
  a === undefined || b === undefined ? (a ?? b) : a > b ? a : b;

const uuidsOf = async (clients: FilterClients, filter: { code?: string; search?: string }) =>
  (await clients.accounts.call('listAccountUuids', { filter })).uuids;

/**
 * Turns the validated query into the service's filter, or null when nothing can match.
 * Account filters name accounts by code; the accounts service resolves them (at most three
 * ListAccountUuids calls, in parallel):
 * - `account`: an unknown code matches nothing (an empty list, as django-filter answers);
 * - `account_not`: an unknown code excludes nothing;
 * - `search`: the uuids of accounts whose name or code contains the text travel as
 *   `search_accounts`; the service matches those, or the invoice number when the text is one.
 * `since` is the deprecated alias of `date__gte` (with both, the later date holds). created_date
 * and last_modified_date bounds are instants (a YYYY-MM-DD date is the whole UTC day).
 * `kickback_status` matches nothing while the organization's kickback feature is off: every
 * invoice then shows null (InvoiceEmbeds).
 */
export async function resolveInvoiceFilter(
  clients: FilterClients,
  query: InvoiceQuery,
): Promise<invoicingV1.InvoiceFilter | null> {
  const [account, accountNot, searchAccounts, kickback] = await Promise.all([
    query.account !== undefined ? uuidsOf(clients, { code: query.account }) : undefined,
    query.account_not !== undefined ? uuidsOf(clients, { code: query.account_not }) : undefined,
    query.search !== undefined ? uuidsOf(clients, { search: query.search }) : [],
    query.kickback_status !== undefined ? kickbackEnabled(clients) : true,
  ]);
  if (account !== undefined && account.length === 0) return null;
  if (!kickback) return null;
  const created = instantRange(query, 'created_date');
  const modified = instantRange(query, 'last_modified_date');
  return {
    uuid: query.uuid,
    invoice_number: query.invoice_number === undefined ? undefined : String(query.invoice_number),
    search: query.search,
    search_accounts: searchAccounts,
    account: account?.[0],
    account_not: accountNot?.[0],
    status_not: query.status_not,
    total_gt: query.total__gt,
    total_lt: query.total__lt,
    subscription_uuid: query.subscription_uuid,
    debt_collection: query.debt_collection,
    status: query.status,
    currency: query.currency,
    collection_method: query.collection_method,
    kickback_status: query.kickback_status,
    balance: query.balance,
    imported: query.imported,
    import_source: query.import_source,
    date_gte: laterDate(query.date__gte, query.since),
    date_lte: query.date__lte,
    due_date_gte: query.due_date__gte,
    due_date_lte: query.due_date__lte,
    created_date_gte: created.gte,
    created_date_lte: created.lte,
    last_modified_date_gte: modified.gte,
    last_modified_date_lte: modified.lte,
  };
}
