/**
 * The texts marked as prepared statements are capped per process (MAX_PREPARED_TEXTS): a caller
 * that marks texts that vary runs them unprepared past the cap instead of filling every
 * connection with statements. In a file of its own: the marked set is the process's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeBound, inTransaction } from '../src/index.js';
import { MAX_PREPARED_TEXTS } from '../src/prepared-statements.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('db_prepared_cap');
});
afterAll(async () => db?.dispose());

it('prepares the first MAX_PREPARED_TEXTS texts marked and runs the ones past it unprepared', async () => {
  const texts = Array.from({ length: MAX_PREPARED_TEXTS + 5 }, (_, n) => `select ?::int * ${n} as product`);
  const { products, prepared } = await inTransaction(db.orm, async (em) => {
    const products: number[] = [];
    for (const text of texts) {
      const { rows } = await executeBound<{ product: number }>(em, text, [2], { prepared: true });
      products.push(rows[0]!.product);
    }
    const counted = await em.execute<Array<{ n: string }>>(
      `select count(*) as n from pg_prepared_statements where statement like 'select $1::int * % as product'`,
    );
    return { products, prepared: Number(counted[0]!.n) };
  });
  expect(products).toEqual(texts.map((_, n) => 2 * n));
  expect(prepared).toBe(MAX_PREPARED_TEXTS);
});
