import { randomUUID } from 'node:crypto';
import { TestClock } from '@billing/clock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresRateLimiter, type RateLimiter } from '../../src/rate-limit/index.js';
import { ACME, FakeAuthenticator } from './support/fake-authenticator.js';
import { type TestSchema, useTestSchema } from './support/postgres.js';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const WIDGETS = '/api/v1/widgets/';
// 15 s into a minute: the window ends at 10:01:00, 45 s later.
const START = '2026-01-15T10:00:15Z';
const WINDOW_END_EPOCH = String(Date.parse('2026-01-15T10:01:00Z') / 1000);

describe('rate limit shared by gateway replicas through Postgres', () => {
  let database: TestSchema;
  let store: PostgresRateLimiter;
  let clock: TestClock;
  let replicaA: WidgetApp;
  let replicaB: WidgetApp;

  beforeAll(async () => {
    database = await useTestSchema('gateway_rl');
    store = new PostgresRateLimiter(database.pool, { schema: database.schema });
    await store.ensureSchema();
  });
  afterAll(() => database.drop());

  async function startReplicas(limit: number): Promise<void> {
    clock = new TestClock(START);
    // A fresh API user per test, so counts of earlier tests do not carry over.
    const principal = { ...ACME, apiUserId: `user-${randomUUID()}`, rateLimitPerMinute: limit };
    // Each replica has its own authenticator and limiter over the one table, as separate processes.
    const replica = () =>
      startWidgetApp({
        clock,
        authenticator: new FakeAuthenticator(principal),
        rateLimiter: new PostgresRateLimiter(database.pool, { schema: database.schema }),
      });
    [replicaA, replicaB] = await Promise.all([replica(), replica()]);
  }

  afterEach(async () => {
    await Promise.all([replicaA?.close(), replicaB?.close()]);
  });

  it('holds one limit across two replicas: 3 on A and 2 on B pass, the 6th on either is 429', async () => {
    await startReplicas(5);

    const passed = [];
    for (const replica of [replicaA, replicaA, replicaA, replicaB, replicaB]) {
      passed.push(await replica.request('GET', WIDGETS));
    }
    const sixthOnA = await replicaA.request('GET', WIDGETS);
    const seventhOnB = await replicaB.request('GET', WIDGETS);

    expect(passed.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(passed.map((response) => response.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    for (const response of passed) {
      expect(response.headers.get('x-ratelimit-limit')).toBe('5');
      expect(response.headers.get('x-ratelimit-reset')).toBe(WINDOW_END_EPOCH);
    }
    for (const refused of [sixthOnA, seventhOnB]) {
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ detail: 'Request was throttled. Expected available in 45 seconds.' });
      expect(refused.headers.get('retry-after')).toBe('45');
      expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-ratelimit-reset')).toBe(WINDOW_END_EPOCH);
    }
  });

  it('counts down to the end of the window and opens again in the next one', async () => {
    await startReplicas(1);

    expect((await replicaA.request('GET', WIDGETS)).status).toBe(200);
    clock.set('2026-01-15T10:00:59.200Z');
    const lastSecond = await replicaB.request('GET', WIDGETS);
    clock.set('2026-01-15T10:01:00Z');
    const nextWindow = await replicaB.request('GET', WIDGETS);

    expect(lastSecond.status).toBe(429);
    expect(lastSecond.body).toEqual({ detail: 'Request was throttled. Expected available in 1 second.' });
    expect(lastSecond.headers.get('retry-after')).toBe('1');
    expect(nextWindow.status).toBe(200);
    expect(nextWindow.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(nextWindow.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-01-15T10:02:00Z') / 1000));
  });

  it('grants exactly the limit to concurrent requests spread over both replicas', async () => {
    await startReplicas(7);

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? replicaA : replicaB).request('GET', WIDGETS)),
    );

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(7);
    expect(statuses.filter((status) => status === 429)).toHaveLength(13);
  });

  it('counts every authenticated request, errors included, and no unauthenticated one', async () => {
    await startReplicas(2);

    expect((await replicaA.request('GET', WIDGETS, { headers: { Authorization: 'Token wrong' } })).status).toBe(401);
    const notFound = await replicaA.request('GET', '/api/v1/widgets/11111111-1111-4111-8111-111111111111/');
    const ok = await replicaB.request('GET', WIDGETS);
    const limited = await replicaB.request('GET', WIDGETS);

    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.status).toBe(429);
  });

  it('uses the gateway default of 60 when the principal has no limit of its own', async () => {
    await startReplicas(0);

    const response = await replicaA.request('GET', WIDGETS);

    expect(response.headers.get('x-ratelimit-limit')).toBe('60');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59');
  });
});

describe('PostgresRateLimiter store', () => {
  let database: TestSchema;

  beforeAll(async () => {
    database = await useTestSchema('gateway_rl_store');
  });
  afterAll(() => database.drop());

  it('reserves blocks for large limits and still grants exactly the limit across replicas', async () => {
    // 2,000 a minute reserves 2 at a time; two replicas taking turns must let exactly 2,000 through.
    const replicas = [1, 2].map(() => new PostgresRateLimiter(database.pool, { schema: database.schema }));
    await replicas[0]!.ensureSchema();
    const now = new Date(START);
    let allowed = 0;
    for (let i = 0; i < 2_100; i++) {
      const decision = await replicas[i % 2]!.hit({ key: 'bulk-user', limit: 2_000, now });
      if (decision.allowed) allowed += 1;
    }
    expect(allowed).toBe(2_000);
    const { rows } = await database.pool.query(
      `select hits from "${database.schema}".rate_limit_windows where api_user_id = 'bulk-user'`,
    );
    // Counted in blocks of 2; once a replica saw the limit reached it stops asking the store.
    expect(rows[0].hits).toBeGreaterThanOrEqual(2_000);
    expect(rows[0].hits).toBeLessThanOrEqual(2_004);
  });

  it('does not overcount concurrent requests of a large limit: they share one reservation', async () => {
    const limiter = new PostgresRateLimiter(database.pool, { schema: database.schema });
    await limiter.ensureSchema();
    const now = new Date(START);
    const decisions = await Promise.all(
      Array.from({ length: 500 }, () => limiter.hit({ key: 'concurrent-user', limit: 1_000_000, now })),
    );
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    // Blocks of 100: 500 requests need exactly 5 blocks, however they interleave.
    const { rows } = await database.pool.query(
      `select hits from "${database.schema}".rate_limit_windows where api_user_id = 'concurrent-user'`,
    );
    expect(rows[0].hits).toBe(500);
    expect(decisions.map((decision) => decision.remaining).sort((a, b) => b - a)[0]).toBe(999_999);
  });

  it('creates its schema and table once, even when replicas start together', async () => {
    const limiters = [1, 2, 3, 4].map(() => new PostgresRateLimiter(database.pool, { schema: database.schema }));

    await Promise.all(limiters.map((limiter) => limiter.ensureSchema()));
    await limiters[0]?.ensureSchema();

    const tables = await database.pool.query(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
      [database.schema],
    );
    expect(tables.rows).toEqual([{ table_name: 'rate_limit_windows' }]);
  });

  it('deletes windows older than the previous one', async () => {
    const limiter = new PostgresRateLimiter(database.pool, { schema: database.schema });
    await limiter.ensureSchema();
    for (const at of ['2026-01-15T09:58:30Z', '2026-01-15T09:59:30Z', '2026-01-15T10:00:30Z']) {
      await limiter.hit({ key: 'cleanup-user', limit: 10, now: new Date(at) });
    }

    const deleted = await limiter.deleteExpiredWindows(new Date('2026-01-15T10:00:45Z'));

    const left = await database.pool.query(
      `SELECT window_start FROM "${database.schema}".rate_limit_windows WHERE api_user_id = 'cleanup-user' ORDER BY 1`,
    );
    expect(deleted).toBe(1);
    expect(left.rows.map((row: { window_start: Date }) => row.window_start.toISOString())).toEqual([
      '2026-01-15T09:59:00.000Z',
      '2026-01-15T10:00:00.000Z',
    ]);
  });

  it('cleans up on a schedule until stopped', async () => {
    const limiter = new PostgresRateLimiter(database.pool, { schema: database.schema });
    await limiter.ensureSchema();
    await limiter.hit({ key: 'scheduled-user', limit: 10, now: new Date('2026-01-15T09:00:00Z') });
    const count = async () =>
      (
        await database.pool.query(
          `SELECT count(*)::int AS n FROM "${database.schema}".rate_limit_windows WHERE api_user_id = 'scheduled-user'`,
        )
      ).rows[0].n;

    const stop = limiter.startCleanup({ clock: new TestClock('2026-01-15T10:00:00Z'), intervalMs: 10 });
    try {
      await vi.waitFor(async () => expect(await count()).toBe(0));
    } finally {
      stop();
    }
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => new PostgresRateLimiter(database.pool, { schema: 'x"; drop table y; --' })).toThrow(
      'Invalid rate limit schema name',
    );
  });
});

describe('a rate limit store that is down', () => {
  it('serves the request uncounted and logs it, rather than failing every client', async () => {
    const broken: RateLimiter = {
      hit: async () => {
        throw new Error('connection refused');
      },
    };
    const app = await startWidgetApp({ rateLimiter: broken });
    try {
      const response = await app.request('GET', WIDGETS);

      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      expect(app.logger.entries).toContainEqual(
        expect.objectContaining({
          level: 'error',
          message: 'rate limiter unavailable; request served without counting',
        }),
      );
    } finally {
      await app.close();
    }
  });
});
