/**
 * The Postgres idempotency store's claim rules on a real database: one holder per key, expired
 * keys and abandoned claims taken over, a superseded holder unable to complete or release the new
 * holder's claim, and the cleanup of expired keys. (The HTTP behaviour: test/contract/idempotency-keys.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdempotencyClaim } from '../../src/idempotency/idempotency-store.js';
import {
  IDEMPOTENCY_RETENTION_MS,
  PostgresIdempotencyStore,
  RUNNING_CLAIM_LEASE_MS,
} from '../../src/idempotency/index.js';
import { type TestSchema, useTestSchema } from './support/postgres.js';

const START = new Date('2026-01-15T09:00:00Z');
const later = (ms: number) => new Date(START.getTime() + ms);
const ANSWER = { status: 201, headers: {}, contentType: 'application/json; charset=utf-8', body: '{"id":1}' };

describe('PostgresIdempotencyStore', () => {
  let database: TestSchema;
  let store: PostgresIdempotencyStore;

  beforeAll(async () => {
    database = await useTestSchema('gateway_idem');
    store = new PostgresIdempotencyStore(database.pool, { schema: database.schema });
    await store.ensureSchema();
    // A second replica starting on the same schema is fine.
    await new PostgresIdempotencyStore(database.pool, { schema: database.schema }).ensureSchema();
  });
  afterAll(() => database.drop());

  const request = (key: string, now: Date, fingerprint = 'f1') => ({
    organizationId: 'org-1',
    key,
    fingerprint,
    requestId: `req-${randomUUID()}`,
    now,
  });

  async function claimed(key: string, now: Date): Promise<IdempotencyClaim> {
    const result = await store.claim(request(key, now));
    if (result.kind !== 'claimed') throw new Error(`expected a claim, got ${result.kind}`);
    return result.claim;
  }

  it('gives a key to one of many concurrent requests; the others see it running', async () => {
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 8 }, () => store.claim(request(key, START))));
    expect(results.filter((result) => result.kind === 'claimed')).toHaveLength(1);
    expect(results.filter((result) => result.kind === 'running')).toHaveLength(7);
  });

  it('takes over a running claim only once its lease has passed; the old holder can then neither complete nor release', async () => {
    const key = randomUUID();
    const old = await claimed(key, START);

    expect((await store.claim(request(key, later(RUNNING_CLAIM_LEASE_MS - 1)))).kind).toBe('running');
    const current = await claimed(key, later(RUNNING_CLAIM_LEASE_MS));
    await store.complete(old, { ...ANSWER, body: '{"id":"old"}' });
    await store.release(old);
    expect((await store.claim(request(key, later(RUNNING_CLAIM_LEASE_MS + 1)))).kind).toBe('running');
    await store.complete(current, ANSWER);

    expect(await store.claim(request(key, later(RUNNING_CLAIM_LEASE_MS + 2)))).toMatchObject({
      kind: 'replay',
      stored: { response: ANSWER },
    });
  });

  it('frees a key when its claim is released, and an expired key at once', async () => {
    const released = randomUUID();
    await store.release(await claimed(released, START));
    expect((await store.claim(request(released, START))).kind).toBe('claimed');

    const expired = randomUUID();
    await store.complete(await claimed(expired, START), ANSWER);
    expect((await store.claim(request(expired, later(IDEMPOTENCY_RETENTION_MS - 1)))).kind).toBe('replay');
    expect((await store.claim(request(expired, later(IDEMPOTENCY_RETENTION_MS), 'another'))).kind).toBe('claimed');
  });

  it('deletes expired keys and only those', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const old = randomUUID();
    const fresh = randomUUID();
    await store.complete(await claimed(old, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)), ANSWER);
    await store.complete(await claimed(fresh, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS + 1)), ANSWER);

    await store.deleteExpiredKeys(now);

    const { rows } = await database.pool.query(
      `select idempotency_key from "${database.schema}".idempotency_keys where idempotency_key = any($1)`,
      [[old, fresh]],
    );
    expect(rows).toEqual([{ idempotency_key: fresh }]);
  });
});
