/**
 * The export worker against a real PostgreSQL: a source's rows become stored pages with progress,
 * read through a cursor and a second connection in one snapshot; failures and expiry.
 */
import { randomUUID } from 'node:crypto';
import { TestClock } from '@billing/clock';
import { openOrm, openPool } from '@billing/db';
import { createLogger } from '@billing/observability';
import { createTestSchema, type TestSchema, waitFor } from '@billing/testing';
import { defineEntity, p } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  EXPORT_LIFETIME_MS,
  ExportJobStore,
  type ExportSource,
  exportEntities,
  FAILED_REASON,
  inBatches,
  numberedPlaceholders,
  PURGE_INTERVAL_MS,
  pagesOf,
  progressOf,
  runExportJobs,
} from '../src/index.js';

/** What the test source exports: numbered things, each with a label in another table. */
const ThingEntity = defineEntity({
  name: 'Thing',
  tableName: 'thing',
  properties: { id: p.integer().primary(), organization_id: p.uuid() },
});
const LabelEntity = defineEntity({
  name: 'Label',
  tableName: 'label',
  properties: { thing_id: p.integer().primary(), text: p.text() },
});

const organizationId = randomUUID();
const context = { requestId: 'export-test', organizationId };
const clock = new TestClock('2026-01-15T09:00:00Z');
const logger = createLogger('exports-test', 'silent');

let schema: TestSchema;
let orm: MikroORM;
let pool: pg.Pool;
let store: ExportJobStore;
/** Rows written while a run reads, to show the run reads one snapshot. */
let duringRun: (() => Promise<void>) | null = null;

/**
 * Things in id order, labelled a batch at a time on the ORM's connection while the cursor is
 * open; pages of 100 things, each encoded as its lines of "id:label".
 */
const things: ExportSource = {
  kind: 'things',
  async open({ stream, em }, request) {
    const where = { organization_id: request.organizationId };
    const total = await em.count(ThingEntity, where);
    await duringRun?.();
    const query = em.createQueryBuilder(ThingEntity).select('*').where(where).orderBy({ id: 'asc' }).toQuery();
    const rows = stream(query, 50) as AsyncIterable<{ id: number }>;
    async function* labelled() {
      let read = 0;
      for await (const batch of inBatches(rows, 70)) {
        const labels = await em.find(LabelEntity, { thing_id: { $in: batch.map((thing) => thing.id) } });
        const text = new Map(labels.map((label) => [label.thing_id, label.text]));
        for (const thing of batch) yield { row: `${thing.id}:${text.get(thing.id)}`, read: ++read };
      }
    }
    return { total, pages: pagesOf(labelled(), 100, (lines) => Buffer.from(lines.join('\n'))) };
  },
};
const broken: ExportSource = {
  kind: 'broken',
  async open() {
    throw new Error('the source broke');
  },
};
const sources = new Map([things, broken].map((source) => [source.kind, source]));
const run = () => runExportJobs({ orm, pool, clock, logger, store, sources });

beforeAll(async () => {
  schema = await createTestSchema('exports');
  orm = await openOrm({
    clientUrl: schema.databaseUrl,
    schema: schema.schema,
    entities: [...exportEntities, ThingEntity, LabelEntity],
    migrations: [],
  });
  await orm.schema.create();
  pool = openPool({ clientUrl: schema.databaseUrl, schema: schema.schema });
  store = new ExportJobStore(pool);
  await pool.query('insert into thing (id, organization_id) select n, $1 from generate_series(1, 250) as n', [
    organizationId,
  ]);
  await pool.query(`insert into label (thing_id, text) select n, 'label ' || n from generate_series(1, 260) as n`);
});
afterAll(async () => {
  await pool.end();
  await orm.close(true);
  await schema.drop();
});

const newJob = (kind: string) =>
  store.create({ kind, params: new Uint8Array(), context, organizationId, now: clock.now() });

it('stores the rows as pages with their progress, read in one snapshot on two connections', async () => {
  const job = await newJob('things');
  expect(job).toMatchObject({ status: 'pending', progress: 0, rows: 0, pages: 0 });
  // Committed after the run's snapshot was taken: not in this export.
  duringRun = async () => {
    await pool.query('insert into thing (id, organization_id) values (251, $1)', [organizationId]);
  };
  try {
    expect(await run()).toBe(1);
  } finally {
    duringRun = null;
  }
  const done = await store.find(organizationId, job.uuid, clock.now());
  expect(done).toMatchObject({ status: 'done', progress: 100, rows: 250, pages: 3, attempts: 1, failureReason: '' });
  const lines: string[] = [];
  const rows: number[] = [];
  for (let index = 0; index < 3; index++) {
    const page = await store.page(job.uuid, index);
    rows.push(page!.rows);
    lines.push(...page!.data.toString().split('\n'));
  }
  expect(rows).toEqual([100, 100, 50]);
  expect(lines).toEqual(Array.from({ length: 250 }, (_, i) => `${i + 1}:label ${i + 1}`));
  await pool.query('delete from thing where id = 251');
});

it('fails a job whose source fails, with a reason and without pages; another organization does not see a job', async () => {
  const job = await newJob('broken');
  await run();
  expect(await store.find(organizationId, job.uuid, clock.now())).toMatchObject({
    status: 'failed',
    failureReason: FAILED_REASON,
    pages: 0,
  });
  expect(await store.find(randomUUID(), job.uuid, clock.now())).toBeNull();
});

it('leaves a job another worker holds, and runs it once that worker is gone', async () => {
  const job = await newJob('things');
  const other = await pool.connect();
  await other.query(`select pg_advisory_lock(hashtext('export_job'), hashtext(current_schema() || $1))`, [job.uuid]);
  const otherBackend = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  expect(await run()).toBe(0);
  expect((await store.find(organizationId, job.uuid, clock.now()))?.status).toBe('pending');
  other.release(true);
  // The worker is gone once its backend is: closing the socket only asks the server to end it.
  await waitFor(
    async () => (await pool.query('select 1 from pg_stat_activity where pid = $1', [otherBackend])).rowCount === 0,
    { description: "the other worker's backend to end, and its lock with it" },
  );
  expect(await run()).toBe(1);
  expect((await store.find(organizationId, job.uuid, clock.now()))?.status).toBe('done');
});

it('forgets a job 7 days after it was asked for: read on the organization’s clock, purged on the service’s', async () => {
  const real = await newJob('things');
  const onTestClock = await store.create({
    kind: 'things',
    params: new Uint8Array(),
    context: { ...context, organizationTime: '2026-01-15T09:00:00.000Z' },
    organizationId,
    now: clock.now(),
  });
  expect(real.expiresAt.toISOString()).toBe('2026-01-22T09:00:00.000Z');
  const justBefore = new Date(clock.now().getTime() + EXPORT_LIFETIME_MS - 1);
  expect(await store.find(organizationId, real.uuid, justBefore)).not.toBeNull();
  expect(await store.purgeExpired(new Date(clock.now().getTime() + EXPORT_LIFETIME_MS))).toBeGreaterThanOrEqual(1);
  expect(await store.find(organizationId, real.uuid, justBefore)).toBeNull();
  // A test-clock organization's job is kept until read after its own expiry.
  const later = new Date(clock.now().getTime() + EXPORT_LIFETIME_MS);
  expect(await store.find(organizationId, onTestClock.uuid, justBefore)).not.toBeNull();
  expect(await store.find(organizationId, onTestClock.uuid, later)).toBeNull();
  expect((await pool.query('select 1 from export_job where id = $1', [onTestClock.uuid])).rowCount).toBe(0);
});

it('deletes expired jobs in its first pass and then at most every PURGE_INTERVAL_MS of the service clock', async () => {
  const passStore = new ExportJobStore(pool);
  const pass = () => runExportJobs({ orm, pool, clock, logger, store: passStore, sources });
  // Asked for a lifetime ago: expired now.
  const expired = () =>
    passStore.create({
      kind: 'things',
      params: new Uint8Array(),
      context,
      organizationId,
      now: new Date(clock.now().getTime() - EXPORT_LIFETIME_MS),
    });
  const stored = async (uuid: string) =>
    (await pool.query('select 1 from export_job where id = $1', [uuid])).rowCount === 1;
  const first = await expired();
  await pass();
  expect(await stored(first.uuid)).toBe(false);
  const second = await expired();
  clock.advanceMs(PURGE_INTERVAL_MS - 1);
  await pass();
  expect(await stored(second.uuid)).toBe(true);
  clock.advanceMs(1);
  await pass();
  expect(await stored(second.uuid)).toBe(false);
  // A clock set back before the last purge purges at once rather than after the interval.
  clock.advanceMs(-2 * PURGE_INTERVAL_MS);
  const third = await expired();
  await pass();
  expect(await stored(third.uuid)).toBe(false);
});

it('counts progress through what the rows are made from, below 100 until the job is done', () => {
  expect([progressOf(0, 250), progressOf(100, 250), progressOf(249, 250), progressOf(250, 250)]).toEqual([
    0, 40, 99, 99,
  ]);
  expect(progressOf(0, 0)).toBe(99);
});

it('numbers the QueryBuilder’s placeholders as PostgreSQL’s, leaving quoted text alone', () => {
  expect(numberedPlaceholders(`select "a?" from t where x = ? and y = '?' and z in (?, ?)`)).toBe(
    `select "a?" from t where x = $1 and y = '?' and z in ($2, $3)`,
  );
});
