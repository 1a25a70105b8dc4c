/**
 * pgArray's literals, read back by Postgres through the ORM (which writes the literal into the
 * statement as a quoted string): every element arrives as it was, whatever characters it holds,
 * null as NULL, a Date as its instant, and the array's length is the planner's row count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgArray } from '../src/index.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('db_pg_array');
});
afterAll(async () => db?.dispose());

describe('pgArray', () => {
  it('passes any text through unchanged, null as NULL', async () => {
    const texts = [
      'plain',
      '',
      'NULL',
      'a,b',
      '{braces}',
      'double "quotes"',
      "single 'quotes'",
      'back\\slash \\" and \\\\',
      '  spaces  ',
      'line\nbreak\ttab',
      'æøå ✓',
      null,
    ];
    const rows = await db.orm.em
      .fork()
      .execute<Array<{ value: string | null; n: string }>>(
        'select value, ordinality as n from unnest(?::text[]) with ordinality as t(value, ordinality) order by n',
        [pgArray(texts)],
      );
    expect(rows.map((row) => row.value)).toEqual(texts);
  });

  it('writes dates as their instants and numbers as themselves', async () => {
    const at = new Date('2026-03-01T09:00:05.123Z');
    const [row] = await db.orm.em.fork().execute<Array<{ instants: string[]; numbers: number[] }>>(
      `select array(select extract(epoch from t)::text from unnest(?::timestamptz[]) as t) as instants,
           ?::int[] as numbers`,
      [pgArray([at, null]), pgArray([1, -2, 30])],
    );
    expect(row!.instants).toEqual([(at.getTime() / 1000).toFixed(6), null]);
    expect(row!.numbers).toEqual([1, -2, 30]);
  });

  it('writes booleans as true and false', async () => {
    const [row] = await db.orm.em
      .fork()
      .execute<Array<{ flags: Array<boolean | null> }>>('select ?::boolean[] as flags', [pgArray([true, false, null])]);
    expect(row!.flags).toEqual([true, false, null]);
  });

  it('tells the planner how many rows unnest gives', async () => {
    const ids = Array.from({ length: 26 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    const [plan] = await db.orm.em
      .fork()
      .execute<Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>>(
        'explain (format json) select * from unnest(?::uuid[]) as k(id)',
        [pgArray(ids)],
      );
    expect(plan!['QUERY PLAN'][0]!.Plan['Plan Rows']).toBe(26);
  });
});
