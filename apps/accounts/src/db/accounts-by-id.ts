import { pgArray, plainRows, selectBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountEntity, type AccountRow } from './entities/account.entity.js';

/**
 * The organization's accounts with those ids, in one statement (unknown ids and another
 * organization's accounts left out; in no particular order): each id is looked up in the primary
 * key by a lateral subquery of its own (`offset 0` keeps the planner from folding it into a join),
 * and the organization is tested on the row found, `(…) is true` so that it is a filter and never
 * the way in. Without planner statistics (autovacuum off here, or a table filled since its last
 * analyze) both plain forms read the whole organization: `organization_id = ? and id in (…)` walked
 * its (organization_id, created_at) index, and a join of the ids with the table hashed a
 * sequential scan of every account once a batch named a few hundred (20 ms a batch of invoicing's
 * buyers at 10,000 accounts, growing with the organization). The rows are plain data, not managed
 * entities (plainRows): every caller only reads them.
 */
export async function findAccountsByIds(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
): Promise<AccountRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectBound<Record<string, unknown>>(
    em,
    `select a.* from unnest(?::uuid[]) as k(id)
      cross join lateral (select * from account a where a.id = k.id and (a.organization_id = ?) is true offset 0) as a`,
    [pgArray(distinctIds(ids)), organizationId],
  );
  return plainRows<AccountRow>(em, AccountEntity, rows);
}

/**
 * The organization's accounts among `ids`, share-locked against deletion (FOR KEY SHARE) in id
 * order, so that two lockers never deadlock; each looked up by key as findAccountsByIds does (the
 * ids go in sorted, and the nested loop locks them in that order).
 */
export async function keyShareAccounts(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await selectBound<{ id: string }>(
    em,
    `select a.id from unnest(?::uuid[]) with ordinality as k(id, n)
      cross join lateral (
        select a.id from account a where a.id = k.id and (a.organization_id = ?) is true offset 0 for key share
      ) as a
      order by k.n`,
    [pgArray(distinctIds(ids).sort()), organizationId],
  );
  return new Set(rows.map((row) => row.id));
}

/** Each id once, lower-cased: the form Postgres prints a uuid in, so that they sort as uuids do. */
const distinctIds = (ids: readonly string[]): string[] => [...new Set(ids.map((id) => id.toLowerCase()))];
