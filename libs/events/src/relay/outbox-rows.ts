import { selectBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';

/** An outbox row as the relay publishes it. */
export interface ClaimedOutboxRow {
  id: string;
  position: number;
  subject: string;
  payload: Buffer;
  traceparent: string | null;
  tracestate: string | null;
}

/** Where a claim looks and what it reports for the relay's floor (OutboxFloor). */
export interface ClaimWindow {
  /** Only rows above this position are claimed (0: all). */
  after: number;
  /** The outbox's position sequence, whose last handed-out value the claim reads. */
  sequenceOid: number;
  /**
   * When set: report whether, in the claim's snapshot, every transaction with an id below this
   * one has ended or holds no position (no lock on the sequence).
   */
  settleAfterXid: string | undefined;
}

export interface Claim {
  /** Oldest first. */
  rows: ClaimedOutboxRow[];
  /** The sequence's last handed-out position, read during the claim (0 before the first). */
  lastPosition: number;
  /** The claiming transaction's id; only a claim that took rows has one. */
  xid: string | undefined;
  /** Every transaction below `settleAfterXid` had ended or held no position (see ClaimWindow). */
  settles: boolean;
  /** When it settles: the lowest position above `after` unpublished in the snapshot and not claimed. */
  firstUnpublished: number | undefined;
}

interface ClaimRow {
  id: string | null;
  position: string | number | null;
  subject: string;
  payload: Buffer;
  traceparent: string | null;
  tracestate: string | null;
  xid: string | null;
  last_position: string | number;
  settles: boolean | null;
  first_unpublished: string | number | null;
}

/**
 * In the caller's transaction, one statement: takes the outbox's transaction-scoped advisory lock
 * if no other relay holds it, and if so marks the oldest `limit` unpublished rows above
 * `window.after` published (locking them, skipping rows another transaction holds) and returns them
 * oldest first. No rows when the lock is taken. The caller publishes them and un-marks the ones
 * that did not go out (releaseOutboxRows) before committing, so the marks are never seen before
 * the publishes.
 *
 * It also reports, from the same snapshot, what the floor (OutboxFloor) needs: the sequence's last
 * value, the transaction's id, whether the snapshot settles `settleAfterXid` and only then (it is
 * not evaluated otherwise) the first row still unpublished above `after` that this claim did not
 * take. A transaction's id is in pg_locks as its transactionid lock; the lock table is read once
 * (materialized) and only when a transaction below `settleAfterXid` still runs. Always one row at
 * least: the report rides on a left join.
 */
export async function claimOutboxRows(
  em: EntityManager,
  table: string,
  lockKey: string,
  limit: number,
  publishedAt: Date,
  window: ClaimWindow,
): Promise<Claim> {
  // Bound and prepared: the text is the same on every claim of this table, so Postgres plans it
  // once per connection (planning it was half a millisecond a claim, hundreds of claims a second).
  const rows = await selectBound<ClaimRow>(
    em,
    `with turn as materialized (select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as acquired),
     claimed as (
       update ${table} as o set published_at = ?
       from (
         select id from ${table}
         where published_at is null and position > ? and (select acquired from turn)
         order by position limit ? for update skip locked
       ) as c
       where o.id = c.id
       returning o.id, o.position, o.subject, o.payload, o.traceparent, o.tracestate,
         pg_current_xact_id()::text as xid
     ),
     locks as materialized (select locktype, relation, transactionid, virtualtransaction, granted from pg_locks),
     report as materialized (
       select coalesce(pg_sequence_last_value(?::oid::regclass), 0) as last_position,
         ?::xid8 is not null and not exists (
           select from pg_snapshot_xip(pg_current_snapshot()) as running(xid)
           where running.xid < ?::xid8 and not exists (
             select from locks as own
             where own.locktype = 'transactionid' and own.transactionid = xid(running.xid) and own.granted
               and not exists (
                 select from locks as drew
                 where drew.locktype = 'relation' and drew.relation = ?::oid
                   and drew.virtualtransaction = own.virtualtransaction
               )
           )
         ) as settles
     )
     select claimed.*, report.last_position, report.settles,
       case when report.settles then (
         select min(position) from ${table}
         where published_at is null and position > ? and id not in (select id from claimed)
       ) end as first_unpublished
     from report left join claimed on true`,
    [
      lockKey,
      publishedAt,
      window.after,
      limit,
      window.sequenceOid,
      window.settleAfterXid ?? null,
      window.settleAfterXid ?? null,
      window.sequenceOid,
      window.after,
    ],
    { prepared: true },
  );
  const [report] = rows;
  if (report === undefined) throw new Error('the outbox claim returned no report row');
  const claimed = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      id: row.id as string,
      position: Number(row.position),
      subject: row.subject,
      payload: row.payload,
      traceparent: row.traceparent,
      tracestate: row.tracestate,
    }))
    // RETURNING follows no order; positions stay far below 2^53.
    .sort((a, b) => a.position - b.position);
  return {
    rows: claimed,
    lastPosition: Number(report.last_position),
    xid: rows.find((row) => row.xid !== null)?.xid ?? undefined,
    settles: report.settles === true,
    firstUnpublished: report.first_unpublished === null ? undefined : Number(report.first_unpublished),
  };
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
