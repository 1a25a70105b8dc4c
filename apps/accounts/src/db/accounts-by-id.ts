import { pgArray, plainRows } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountEntity, type AccountRow } from './entities/account.entity.js';

/**
 * The organization's accounts with those ids, in one statement (unknown ids and another
 * organization's accounts left out; in no particular order): each id is looked up in the primary
 * key and the organization is tested on the row found, `(…) is true` so that it is a filter and
 * never the way in. Written as `organization_id = ? and id in (…)`, the planner, without statistics
 * (autovacuum off here, or a table filled since its last analyze), took the organization's
 * condition for selective and read every account of the organization through its
 * (organization_id, created_at) index: at 50,000 accounts, about 1,400 buffers for a batch of 100
 * buyers, a cost that grew with the organization. The rows are plain data, not managed entities
 * (plainRows): every caller only reads them.
 */
export async function findAccountsByIds(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
): Promise<AccountRow[]> {
  if (ids.length === 0) return [];
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select a.* from unnest(?::uuid[]) as k(id)
       join account a on a.id = k.id
      where (a.organization_id = ?) is true`,
    [pgArray([...new Set(ids)]), organizationId],
  );
  return plainRows<AccountRow>(em, AccountEntity, rows);
}

/**
 * The organization's accounts among `ids` (sorted), share-locked against deletion (FOR KEY SHARE)
 * in id order, so that two lockers never deadlock; looked up by key as findAccountsByIds does.
 */
export async function keyShareAccounts(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await em.execute<Array<{ id: string }>>(
    `select a.id from account a
      where a.id = any(?::uuid[]) and (a.organization_id = ?) is true
      order by a.id
      for key share`,
    [pgArray([...new Set(ids)]), organizationId],
  );
  return new Set(rows.map((row) => row.id));
}
