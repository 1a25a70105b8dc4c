import type { EntityManager } from '@mikro-orm/postgresql';

/** The sequence behind an outbox's `position`, and whether the relay's floor may rely on it. */
export interface OutboxPositionSequence {
  oid: number;
  /**
   * The column's default draws a position only once the transaction has an id, and the sequence
   * hands values out one at a time (no per-session cache, which would hand out values below its
   * last value later): what OutboxFloor's proof assumes.
   */
  supportsFloor: boolean;
  /** Why not, when it does not. */
  reason?: string;
}

/** The default the migrations set (outbox_position_after_xid), as Postgres prints it back. */
const POSITION_AFTER_XID = /^CASE WHEN \(pg_current_xact_id\(\) IS NOT NULL\) THEN nextval\(/;

export async function readOutboxPositionSequence(em: EntityManager, table: string): Promise<OutboxPositionSequence> {
  const [row] = await em.execute<{ oid: number | null; cache: string | null; position_default: string | null }[]>(
    `select s.seqrelid::int as oid, s.seqcache::text as cache, pg_get_expr(d.adbin, d.adrelid) as position_default
     from pg_attribute a
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     left join pg_sequence s on s.seqrelid = pg_get_serial_sequence(?, 'position')::regclass
     where a.attrelid = ?::regclass and a.attname = 'position'`,
    [table, table],
  );
  if (!row?.oid) throw new Error(`${table} has no position sequence`);
  const positionDefault = (row.position_default ?? '').replace(/\s+/g, ' ').trim();
  if (!POSITION_AFTER_XID.test(positionDefault)) {
    return { oid: row.oid, supportsFloor: false, reason: `position default is ${positionDefault}` };
  }
  if (row.cache !== '1') return { oid: row.oid, supportsFloor: false, reason: `position sequence caches ${row.cache}` };
  return { oid: row.oid, supportsFloor: true };
}
