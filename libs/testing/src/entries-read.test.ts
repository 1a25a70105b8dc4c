/**
 * entriesRead counts, per table of the current schema, what the transaction read: every row a
 * sequential scan read, and every entry an index scan returned. entriesReadRolledBack answers a
 * statement's result and count and leaves nothing of its writes behind.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesReadBy, entriesReadRolledBack, type TransactionQuery } from './entries-read.js';
import { createTestSchema, type TestSchema } from './test-database.js';

let schema: TestSchema;
let client: pg.Client;
const query: TransactionQuery = async (sql) => (await client.query(sql)).rows;

beforeAll(async () => {
  schema = await createTestSchema('entries_read');
  client = new pg.Client({ connectionString: schema.databaseUrl });
  await client.connect();
  await client.query(`create schema ${schema.schema}`);
  await client.query(`set search_path = ${schema.schema}`);
  await client.query('create table widget (id int primary key, kind text not null)');
  await client.query('create index widget_kind_idx on widget (kind)');
  await client.query(
    "insert into widget select g, case when g % 10 = 0 then 'rare' else 'common' end from generate_series(1, 1000) g",
  );
  await client.query('create table untouched (id int primary key)');
  await client.query('analyze widget');
});

afterAll(async () => {
  await client?.end();
  await schema?.drop();
});

/** `work` in a transaction of `client`, rolled back when it throws. */
async function transactional(work: (tx: pg.Client) => Promise<void>): Promise<void> {
  await client.query('begin');
  try {
    await work(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

describe('entriesReadBy', () => {
  it("counts a sequential scan's rows and an index scan's entries, per table; tables not read are left out", async () => {
    // Each in a transaction of its own: a plan setting holds until its transaction ends.
    const reads = async (sql: string) => {
      let read: Record<string, number> = {};
      await transactional(async () => {
        read = await entriesReadBy(query, () => client.query(sql));
      });
      return read;
    };
    expect(
      await reads('set local enable_indexscan = off; set local enable_bitmapscan = off; select count(*) from widget'),
    ).toEqual({ widget: 1000 });
    expect(await reads('select * from widget where id = 7')).toEqual({ widget: 1 });
    expect(await reads("set local enable_seqscan = off; select * from widget where kind = 'rare'")).toEqual({
      widget: 100,
    });
  });
});

describe('entriesReadRolledBack', () => {
  it("answers the statement's result and count, and rolls its writes back", async () => {
    const { answer, entries } = await entriesReadRolledBack(
      transactional,
      () => query,
      async (tx) => {
        await tx.query('insert into untouched values (1)');
        return (await tx.query<{ kind: string }>('select kind from widget where id = 3')).rows[0]!.kind;
      },
    );
    expect(answer).toBe('common');
    expect(entries).toEqual({ widget: 1 });
    expect((await client.query('select * from untouched')).rows).toEqual([]);
  });
});
