import type { EntityManager } from '@mikro-orm/postgresql';

/** An outbox row as the relay publishes it. */
export interface ClaimedOutboxRow {
  id: string;
  subject: string;
  payload: Buffer;
  traceparent: string | null;
  tracestate: string | null;
}

/**
 * In the caller's transaction, one statement: takes the outbox's transaction-scoped advisory lock
 * if no other relay holds it, and if so marks the oldest `limit` unpublished rows published
 * (locking them, skipping rows another transaction holds) and returns them oldest first. Nothing
 * when the lock is taken. The caller publishes them and un-marks the ones that did not go out
 * (releaseOutboxRows) before committing, so the marks are never seen before the publishes.
 */
export async function claimOutboxRows(
  em: EntityManager,
  table: string,
  lockKey: string,
  limit: number,
  publishedAt: Date,
): Promise<ClaimedOutboxRow[]> {
  const rows = await em.execute<(ClaimedOutboxRow & { position: string | number })[]>(
    `with turn as materialized (select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as acquired)
     update ${table} as o set published_at = ?
     from (
       select id from ${table}
       where published_at is null and (select acquired from turn)
       order by position limit ? for update skip locked
     ) as claimed
     where o.id = claimed.id
     returning o.id, o.position, o.subject, o.payload, o.traceparent, o.tracestate`,
    [lockKey, publishedAt, limit],
  );
  // RETURNING follows no order; positions stay far below 2^53.
  return rows.sort((a, b) => Number(a.position) - Number(b.position));
}

/**
 * In the claiming transaction: the rows from `failed` on were not published; `failed` counts an
 * attempt and keeps the error, the others stay as they were.
 */
export async function releaseOutboxRows(
  em: EntityManager,
  table: string,
  unpublishedIds: readonly string[],
  lastError: string,
): Promise<void> {
  const [failed] = unpublishedIds;
  if (failed === undefined) return;
  await em.execute(
    `update ${table} set published_at = null,
       attempts = case when id = ? then attempts + 1 else attempts end,
       last_error = case when id = ? then ? else last_error end
     where id in (${unpublishedIds.map(() => '?').join(', ')})`,
    [failed, failed, lastError, ...unpublishedIds],
  );
}
