/** Runs a statement on the transaction's connection and answers its rows. */
export type TransactionQuery = (sql: string) => Promise<ReadonlyArray<Record<string, unknown>>>;

/**
 * How many entries the current transaction has read so far, per table of the current schema: rows
 * read by sequential scans of the table plus entries returned by scans of each of its indexes
 * (Postgres' per-transaction statistics, counted whatever plan a statement took). Taken before and
 * after a statement, it tells whether the statement looked its rows up by key or walked a range
 * the size of a tenant, which timing on a small table cannot.
 */
export async function entriesRead(query: TransactionQuery): Promise<Map<string, number>> {
  const rows = await query(
    `select t.relname as "table",
        pg_stat_get_xact_tuples_returned(t.oid)
          + coalesce((select sum(pg_stat_get_xact_tuples_returned(i.indexrelid)) from pg_index i
                       where i.indrelid = t.oid), 0) as entries
       from pg_class t
      where t.relnamespace = current_schema()::regnamespace and t.relkind = 'r'`,
  );
  return new Map(rows.map((row) => [row.table as string, Number(row.entries)]));
}

/** The entries read per table (as entriesRead counts them) while `work` ran in the transaction; tables not read are left out. */
export async function entriesReadBy(
  query: TransactionQuery,
  work: () => Promise<unknown>,
): Promise<Record<string, number>> {
  const before = await entriesRead(query);
  await work();
  const after = await entriesRead(query);
  const read: Record<string, number> = {};
  for (const [table, entries] of after) {
    const delta = entries - (before.get(table) ?? 0);
    if (delta > 0) read[table] = delta;
  }
  return read;
}

class RolledBack {
  constructor(readonly result: unknown) {}
}

/**
 * What `statement` answers and the entries each table gave it (entriesReadBy), run in a
 * transaction of `transactional` that is rolled back after, so that a statement's writes do not
 * change what the next one finds. `transactional` runs its work in a transaction and rolls it back
 * when the work throws (MikroORM's `em.transactional`, for one); `query` runs SQL in it.
 */
export async function entriesReadRolledBack<Tx, T>(
  transactional: (work: (tx: Tx) => Promise<void>) => Promise<unknown>,
  query: (tx: Tx) => TransactionQuery,
  statement: (tx: Tx) => Promise<T>,
): Promise<{ answer: T; entries: Record<string, number> }> {
  try {
    await transactional(async (tx) => {
      let answer!: T;
      const entries = await entriesReadBy(query(tx), async () => {
        answer = await statement(tx);
      });
      throw new RolledBack({ answer, entries });
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.result as { answer: T; entries: Record<string, number> };
    throw error;
  }
  throw new Error('the measured transaction was not rolled back');
}

/** What entriesReadInOrm needs of an ORM (MikroORM's): a forked EntityManager's transaction and raw SQL. */
export interface TransactionalOrm<Em extends { execute(sql: string): Promise<unknown> }> {
  em: { fork(): { transactional(work: (em: Em) => Promise<void>): Promise<unknown> } };
}

/** entriesReadRolledBack in a transaction of a fork of `orm`'s EntityManager, its SQL run by `em.execute`. */
export function entriesReadInOrm<Em extends { execute(sql: string): Promise<unknown> }, T>(
  orm: TransactionalOrm<Em>,
  statement: (em: Em) => Promise<T>,
): Promise<{ answer: T; entries: Record<string, number> }> {
  return entriesReadRolledBack<Em, T>(
    (work) => orm.em.fork().transactional(work),
    (em) => (sql) => em.execute(sql) as Promise<ReadonlyArray<Record<string, unknown>>>,
    statement,
  );
}
