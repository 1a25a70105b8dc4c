import type { accountsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';

type AccountClients = Pick<ServiceClients, 'accounts'>;

/** DRF's SlugRelatedField wording for an unknown account code, as every write naming one answers it. */
export const accountDoesNotExist = (code: string) => `Object with code=${code} does not exist.`;

/**
 * The organization's account of that code, or undefined when it has none (unknown codes and other
 * organizations' look alike: each caller decides whether that is a 404, a 400 or an empty list).
 */
export async function findAccountByCode(
  clients: AccountClients,
  code: string,
): Promise<accountsV1.AccountSummary | undefined> {
  const { accounts } = await clients.accounts.call('getAccountSummaries', { uuids: [], codes: [code] });
  return accounts.find((summary) => summary.code === code);
}

/**
 * The account summaries a set of objects embeds: one GetAccountSummaries call whatever their
 * number, none for accounts the caller already holds.
 */
export async function loadAccounts(
  clients: AccountClients,
  accountUuids: Iterable<string>,
  known: readonly accountsV1.AccountSummary[] = [],
): Promise<Map<string, accountsV1.AccountSummary>> {
  const accounts = new Map(known.map((summary) => [summary.uuid, summary]));
  const missing = [...new Set(accountUuids)].filter((uuid) => uuid !== '' && !accounts.has(uuid));
  if (missing.length > 0) {
    const reply = await clients.accounts.call('getAccountSummaries', { uuids: missing, codes: [] });
    for (const summary of reply.accounts) accounts.set(summary.uuid, summary);
  }
  return accounts;
}
