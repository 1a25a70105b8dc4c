/**
 * The whole-run baseline's replay (run-replay.ts, run-replay-baseline.ts) on real Postgres: two
 * "service" schemas are copied, then changed as a run would change them (rows inserted, updated,
 * deleted; numbers, JSON, times, bytes, arrays and a two-column key), the changes are staged in
 * batches and written again into the copies, which must then hold exactly what the schemas hold.
 */
import { randomUUID } from 'node:crypto';
import { testDatabaseUrl } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copySchemaOf,
  copySchemas,
  dropReplay,
  type RunReplay,
  replayProblems,
  stagedSince,
  stageRunRows,
  stageSchemaOf,
} from '../src/run-replay.js';
import { replayRunRows } from '../src/run-replay-baseline.js';

const HOOK_TIMEOUT_MS = 60_000;
const tag = randomUUID().slice(0, 8);
const billing = `replay_${tag}_billing`;
const ledger = `replay_${tag}_ledger`;
const replay: RunReplay = { prefix: `replay_${tag}_copy`, schemas: [billing, ledger] };

let pool: pg.Pool;
let client: pg.PoolClient;
/** The first transaction of the run's ledger changes (for stagedSince). */
let ledgerChanges: bigint;

const ids = Array.from({ length: 6 }, (_, i) => `00000000-0000-4000-8000-00000000000${i + 1}`);

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  client = await pool.connect();
  await client.query(`create schema ${billing}; create schema ${ledger};
    create table ${billing}.invoice (id uuid primary key, number int not null unique, total numeric(20, 2) not null,
      lines jsonb not null, issued_at timestamptz, pdf bytea, tags text[] not null default '{}', status text not null);
    create table ${billing}.outbox (id bigserial primary key, subject text not null, published_at timestamptz)
      with (fillfactor = 50, autovacuum_enabled = false);
    create table ${ledger}.entry (organization_id uuid not null, k int not null, amount numeric not null,
      note text, meta jsonb, primary key (organization_id, k));`);
  // Before the run: two invoices, an outbox row, two ledger entries.
  await client.query(
    `insert into ${billing}.invoice values ($1, 1, 10.00, '[{"amount": "10.00"}]', '2026-11-01T09:00:00Z', null, '{a}', 'open'),
       ($2, 2, 20.50, '[]', null, '\\x00ff'::bytea, '{}', 'open')`,
    [ids[0], ids[1]],
  );
  await client.query(`insert into ${billing}.outbox (subject) values ('before')`);
  await client.query(
    `insert into ${ledger}.entry values ($1, 1, 1.10, 'kept', '{"a": 1}'), ($1, 2, 2.20, 'goes', null), ($1, 4, 4, 'noted', null)`,
    [ids[5]],
  );

  await copySchemas(client, replay);

  // The run: invoice 2 paid, three new invoices (one with quotes and a newline in its JSON), outbox
  // rows inserted and marked published, one ledger entry deleted, one inserted (its JSON the value
  // null, not SQL NULL), one updated by its two-column key (its note set to NULL).
  await client.query(`update ${billing}.invoice set status = 'paid', total = 20.49 where id = $1`, [ids[1]]);
  for (let i = 2; i < 5; i++) {
    await client.query(
      `insert into ${billing}.invoice values ($1, $2, $3, $4, '2026-12-01T09:00:00.123456Z', '\\xdeadbeef'::bytea, '{x,"y z"}', 'open')`,
      [ids[i], i + 1, `${i}00.01`, JSON.stringify([{ amount: `${i}00.01`, note: 'a "quoted"\nline' }])],
    );
    await client.query(`insert into ${billing}.outbox (subject) values ($1)`, [`issued ${i + 1}`]);
  }
  await client.query(`update ${billing}.outbox set published_at = '2026-12-01T09:00:01Z'`);
  const { rows: next } = await client.query('select pg_snapshot_xmax(pg_current_snapshot())::text as xid');
  ledgerChanges = BigInt(next[0].xid);
  await client.query(`delete from ${ledger}.entry where k = 2`);
  await client.query(`insert into ${ledger}.entry values ($1, 3, 3.333, null, 'null'::jsonb)`, [ids[5]]);
  await client.query(`update ${ledger}.entry set note = null where organization_id = $1 and k = 4`, [ids[5]]);
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await dropReplay(client, replay);
  await client.query(`drop schema if exists ${billing} cascade; drop schema if exists ${ledger} cascade`);
  client.release();
  await pool.end();
});

describe('replaying a run', () => {
  it('stages what the run changed, each row once, as it ended up, in batches in last-write order', async () => {
    const staged = await stageRunRows(client, replay, 3);
    expect(staged).toEqual({
      inserted: 7,
      updated: 3,
      deleted: 1,
      batches: 3,
      perTable: [
        // 3 new invoices + invoice 2; 3 new outbox rows (inserted, then published) + the one before.
        { table: `${billing}.invoice`, inserted: 3, updated: 1, deleted: 0 },
        { table: `${billing}.outbox`, inserted: 3, updated: 1, deleted: 0 },
        { table: `${ledger}.entry`, inserted: 1, updated: 1, deleted: 1 },
      ],
    });
    // 11 rows in 3 batches of 4, 4, 3: the deleted entry first, then by the transaction that last
    // wrote each row (invoice 2's payment, the new invoices, the outbox marks, then the ledger).
    const { rows } = await client.query(
      `select batch, tbl, kind from ${stageSchemaOf(replay)}.run_row order by batch, position, k`,
    );
    expect(rows.map((row) => `${row.batch} ${row.tbl} ${row.kind}`)).toEqual([
      '1 entry delete',
      '1 invoice update',
      '1 invoice insert',
      '1 invoice insert',
      '2 invoice insert',
      '2 outbox update',
      '2 outbox insert',
      '2 outbox insert',
      '3 outbox insert',
      '3 entry insert',
      '3 entry update',
    ]);
    // Last written from the ledger's changes on: the inserted and the updated entry (not the delete).
    expect(await stagedSince(client, replay, ledgerChanges)).toBe(2);
    // Before the replay the copies still hold the state before the run.
    expect(await replayProblems(client, replay)).toEqual([
      `${billing}.invoice: the replay left 2 rows of other content, the run 5`,
      `${billing}.outbox: the replay left 1 rows of other content, the run 4`,
      `${ledger}.entry: the replay left 3 rows of other content, the run 3`,
    ]);
  });

  it('writes the staged rows into the copies, which then hold what the schemas hold', async () => {
    await replayRunRows(pool, replay);
    expect(await replayProblems(client, replay)).toEqual([]);
    const { rows } = await client.query(
      `select number, total::text, lines, issued_at, encode(pdf, 'hex') as pdf, tags, status
       from ${copySchemaOf(replay, billing)}.invoice order by number`,
    );
    expect(rows.map((row) => [row.number, row.total, row.status, row.pdf, row.tags])).toEqual([
      [1, '10.00', 'open', null, ['a']],
      [2, '20.49', 'paid', '00ff', []],
      [3, '200.01', 'open', 'deadbeef', ['x', 'y z']],
      [4, '300.01', 'open', 'deadbeef', ['x', 'y z']],
      [5, '400.01', 'open', 'deadbeef', ['x', 'y z']],
    ]);
    expect(rows[4].lines).toEqual([{ amount: '400.01', note: 'a "quoted"\nline' }]);
    expect(rows[4].issued_at.toISOString()).toBe('2026-12-01T09:00:00.123Z');
    const { rows: entries } = await client.query(
      `select k, amount::text, note, meta, meta is null as sql_null from ${copySchemaOf(replay, ledger)}.entry order by k`,
    );
    expect(entries).toEqual([
      { k: 1, amount: '1.10', note: 'kept', meta: { a: 1 }, sql_null: false },
      { k: 3, amount: '3.333', note: null, meta: null, sql_null: false },
      { k: 4, amount: '4', note: null, meta: null, sql_null: true },
    ]);
  });

  it('finds a row the replay did not write as the run did', async () => {
    await client.query(`update ${copySchemaOf(replay, ledger)}.entry set amount = 3.3330 where k = 3`);
    expect(await replayProblems(client, replay)).toEqual([
      `${ledger}.entry: the replay left 3 rows of other content, the run 3`,
    ]);
  });

  it("keeps the copies' keys and constraints", async () => {
    await expect(
      client.query(
        `insert into ${copySchemaOf(replay, billing)}.invoice (id, number, total, lines, status) values ($1, 1, 0, '[]', 'open')`,
        [randomUUID()],
      ),
    ).rejects.toThrow(/duplicate key value violates unique constraint/);
  });

  it("keeps the tables' storage parameters (the outbox's free half of each page)", async () => {
    const { rows } = await client.query(
      `select n.nspname as schema, c.reloptions as options from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relname = 'outbox' and n.nspname in ($1, $2) order by n.nspname = $1 desc`,
      [billing, copySchemaOf(replay, billing)],
    );
    expect(rows).toEqual(
      [billing, copySchemaOf(replay, billing)].map((schema) => ({
        schema,
        options: ['fillfactor=50', 'autovacuum_enabled=false'],
      })),
    );
  });

  it('refuses to copy a schema with a trigger or a generated column', async () => {
    const refused: RunReplay = { prefix: `replay_${tag}_refused`, schemas: [ledger] };
    await client.query(
      `create table ${ledger}.derived (id int primary key, twice int generated always as (id * 2) stored)`,
    );
    await client.query(
      `create function ${ledger}.touch() returns trigger language plpgsql as 'begin return new; end';
       create trigger touched before insert on ${ledger}.entry for each row execute function ${ledger}.touch()`,
    );
    try {
      await expect(copySchemas(client, refused)).rejects.toThrow(
        `cannot copy for the replay: ${ledger}.entry has a trigger, ${ledger}.derived.twice is generated`,
      );
    } finally {
      await client.query(`drop table ${ledger}.derived; drop trigger touched on ${ledger}.entry`);
      await dropReplay(client, refused);
    }
  });

  it('refuses to copy a schema with a foreign key', async () => {
    const withKey: RunReplay = { prefix: `replay_${tag}_refused`, schemas: [billing] };
    await client.query(
      `create table ${billing}.line (id int primary key, invoice_id uuid references ${billing}.invoice (id))`,
    );
    try {
      await expect(copySchemas(client, withKey)).rejects.toThrow(
        `cannot copy for the replay: ${billing}.line has a foreign key`,
      );
      const { rows } = await client.query('select count(*)::int as n from pg_namespace where nspname = $1', [
        copySchemaOf(withKey, billing),
      ]);
      expect(rows[0].n).toBe(0);
    } finally {
      await client.query(`drop table ${billing}.line`);
      await dropReplay(client, withKey);
    }
  });
});
