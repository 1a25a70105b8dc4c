/**
 * `Idempotency-Key` on POST (docs/api.md "Idempotency keys", Stripe's semantics): the first answer
 * is kept per organization and key for 24 hours on the gateway's clock and replayed to the same
 * request; another request with the key is 422; a request while the first runs is 409; every
 * gateway replica shares the keys (the gateway schema in Postgres).
 */
import { randomUUID } from 'node:crypto';
import { waitFor } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_IN_USE, KEY_REUSED } from '../../src/http/route/idempotent-answer.js';
import type { ApiClient, ApiResponse, GatewayReplica, TestOrganization } from '../support/platform.js';
import {
  ACCOUNTS,
  accountInput,
  expectStatus,
  newOrganization,
  PLANS,
  planInput,
  uniqueCode,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

async function countOf(api: ApiClient, path: string): Promise<number> {
  const response = await api.get(path);
  expectStatus(response, 200);
  return response.body.count;
}

function expectReplayOf(replay: ApiResponse, first: ApiResponse): void {
  expect(replay.status).toBe(first.status);
  expect(replay.text).toBe(first.text);
  expect(replay.headers.get('content-type')).toBe(first.headers.get('content-type'));
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.headers.get('original-request')).toBe(first.headers.get('x-request-id'));
  // A replay is a request of its own: its own id and rate-limit count.
  expect(replay.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  expect(replay.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
}

/**
 * A connection of the test's own holding an exclusive lock on the accounts service's account
 * table: an account create stops at its insert until `release`, so its request stays running.
 */
async function holdAccountWrites() {
  const { databaseUrl, schema } = platform().accountsDatabase;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`set search_path to "${schema}"`);
  await client.query('begin');
  await client.query('lock table account in exclusive mode');
  return {
    async release() {
      await client.query('commit').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

describe('Idempotency-Key', () => {
  let gatewayDb: pg.Client;
  let replica: GatewayReplica;

  beforeAll(async () => {
    gatewayDb = new pg.Client({ connectionString: platform().gatewayDatabase.databaseUrl });
    await gatewayDb.connect();
    replica = await platform().startGatewayReplica();
  });
  afterAll(async () => {
    await gatewayDb?.end();
    await replica?.stop();
  });

  /** The key's row in the gateway schema: null while its first request runs, then the stored status. */
  async function claimOf(org: TestOrganization, key: string): Promise<{ response_status: number | null } | undefined> {
    const { rows } = await gatewayDb.query(
      `select response_status from "${platform().gatewayDatabase.schema}".idempotency_keys
        where organization_id = $1 and idempotency_key = $2`,
      [org.organizationId, key],
    );
    return rows[0];
  }

  it('a retried POST with the same key creates one account and replays the first answer byte for byte', async () => {
    const org = await newOrganization(platform());
    const key = randomUUID();
    const body = accountInput(uniqueCode(), { company_name: 'Acme ApS' });

    const first = await org.api.post(ACCOUNTS, body, keyed(key));
    const retry = await org.api.post(ACCOUNTS, body, keyed(key));
    // The same fields in another order are the same request.
    const reordered = await org.api.post(ACCOUNTS, Object.fromEntries(Object.entries(body).reverse()), keyed(key));

    expectStatus(first, 201);
    expect(first.body.code).toBe(body.code);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expectReplayOf(retry, first);
    expectReplayOf(reordered, first);
    expect(await countOf(org.api, ACCOUNTS)).toBe(1);
    expect(await claimOf(org, key)).toEqual({ response_status: 201 });
  });

  it('refuses the key with another body or on another path (422), creating nothing', async () => {
    const org = await newOrganization(platform());
    const key = randomUUID();
    const code = uniqueCode();
    expectStatus(await org.api.post(ACCOUNTS, accountInput(code), keyed(key)), 201);

    const otherBody = await org.api.post(ACCOUNTS, accountInput(uniqueCode()), keyed(key));
    const otherPath = await org.api.post(PLANS, planInput(), keyed(key));

    for (const response of [otherBody, otherPath]) {
      expectStatus(response, 422);
      expect(response.body).toEqual({ detail: KEY_REUSED });
      expect(response.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await countOf(org.api, ACCOUNTS)).toBe(1);
    expect(await countOf(org.api, PLANS)).toBe(0);
  });

  it('keeps keys per organization: another organization with the same key and body gets its own account', async () => {
    const [a, b] = [await newOrganization(platform()), await newOrganization(platform())];
    const key = randomUUID();
    const body = accountInput(uniqueCode());

    const inA = await a.api.post(ACCOUNTS, body, keyed(key));
    const inB = await b.api.post(ACCOUNTS, body, keyed(key));

    expectStatus(inA, 201);
    expectStatus(inB, 201);
    expect(inB.headers.get('idempotent-replayed')).toBeNull();
    expect(inB.body.uuid).not.toBe(inA.body.uuid);
    expect([await countOf(a.api, ACCOUNTS), await countOf(b.api, ACCOUNTS)]).toEqual([1, 1]);
  });

  it('a body refused by validation does not use the key: the corrected request with the same key runs', async () => {
    const org = await newOrganization(platform());
    const key = randomUUID();
    const code = uniqueCode();

    const invalid = await org.api.post(ACCOUNTS, accountInput(code, { legal_country: undefined }), keyed(key));
    const corrected = await org.api.post(ACCOUNTS, accountInput(code), keyed(key));

    expectStatus(invalid, 400);
    expect(invalid.body).toEqual({ legal_country: ['This field is required.'] });
    expectStatus(corrected, 201);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    expect(await countOf(org.api, ACCOUNTS)).toBe(1);
  });

  it("keeps a service's refusal and replays it", async () => {
    const org = await newOrganization(platform());
    const code = uniqueCode();
    expectStatus(await org.api.post(ACCOUNTS, accountInput(code)), 201);
    const key = randomUUID();

    const refused = await org.api.post(ACCOUNTS, accountInput(code), keyed(key));
    const retry = await org.api.post(ACCOUNTS, accountInput(code), keyed(key));

    expectStatus(refused, 400);
    expect(refused.body).toEqual({ code: ['account with this code already exists.'] });
    expectReplayOf(retry, refused);
  });

  it('answers 409 to the same key while its first request runs, on any replica; the first then completes once', async () => {
    const org = await newOrganization(platform());
    const key = randomUUID();
    const body = accountInput(uniqueCode());
    const lock = await holdAccountWrites();
    let first: Promise<ApiResponse> | undefined;
    try {
      first = org.api.post(ACCOUNTS, body, keyed(key));
      await waitFor(async () => (await claimOf(org, key))?.response_status === null, {
        description: 'the first request holding the key',
      });

      const here = await org.api.post(ACCOUNTS, body, keyed(key));
      const onReplica = await replica.api(org.token).post(ACCOUNTS, body, keyed(key));

      for (const response of [here, onReplica]) {
        expectStatus(response, 409);
        expect(response.body).toEqual({ detail: KEY_IN_USE });
      }
    } finally {
      await lock.release();
    }
    const done = await first;
    expectStatus(done, 201);
    expectReplayOf(await org.api.post(ACCOUNTS, body, keyed(key)), done);
    expect(await countOf(org.api, ACCOUNTS)).toBe(1);
  });

  it('is shared by gateway replicas: the retry on another replica replays the answer', async () => {
    const org = await newOrganization(platform());
    const key = randomUUID();
    const body = accountInput(uniqueCode());

    const first = await org.api.post(ACCOUNTS, body, keyed(key));
    const retry = await replica.api(org.token).post(ACCOUNTS, body, keyed(key));

    expectStatus(first, 201);
    expectReplayOf(retry, first);
    expect(await countOf(org.api, ACCOUNTS)).toBe(1);
  });

  it('keeps no answer that asks for a retry: after a 503 the same key runs the request again', async () => {
    const org = await newOrganization(platform());
    const key = randomUUID();
    const body = planInput();
    // A replica whose subscriptions service is unreachable (nothing listens on port 1).
    const broken = await platform().startGatewayReplica({ services: { subscriptions: '127.0.0.1:1' } });
    try {
      const unavailable = await broken.api(org.token).post(PLANS, body, keyed(key));
      expectStatus(unavailable, 503);
      expect(unavailable.body).toEqual({
        detail: 'Service temporarily unavailable.',
        request_id: unavailable.headers.get('x-request-id'),
      });
    } finally {
      await broken.stop();
    }
    expect(await claimOf(org, key)).toBeUndefined();

    const retry = await org.api.post(PLANS, body, keyed(key));

    expectStatus(retry, 201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await countOf(org.api, PLANS)).toBe(1);
  });

  it('refuses a blank key or one over 255 characters (400 naming the header), and takes 255', async () => {
    const org = await newOrganization(platform());

    const tooLong = await org.api.post(ACCOUNTS, accountInput(uniqueCode()), keyed('k'.repeat(256)));
    const blank = await org.api.post(ACCOUNTS, accountInput(uniqueCode()), keyed(' '));
    const longest = await org.api.post(ACCOUNTS, accountInput(uniqueCode()), keyed('k'.repeat(255)));

    expectStatus(tooLong, 400);
    expect(tooLong.body).toEqual({ 'Idempotency-Key': ['Ensure this field has no more than 255 characters.'] });
    expectStatus(blank, 400);
    expect(blank.body).toEqual({ 'Idempotency-Key': ['This field may not be blank.'] });
    expectStatus(longest, 201);
    expect(await countOf(org.api, ACCOUNTS)).toBe(1);
  });

  // Last: it moves the platform clock a day on.
  it('replays for 24 hours on the gateway clock; after that the key runs the request again', async () => {
    const org = await newOrganization(platform());
    const key = randomUUID();
    const body = accountInput(uniqueCode());
    const first = await org.api.post(ACCOUNTS, body, keyed(key));
    expectStatus(first, 201);

    platform().clock.advanceMs(24 * 60 * 60 * 1000 - 1);
    const lastReplay = await org.api.post(ACCOUNTS, body, keyed(key));
    platform().clock.advanceMs(1);
    const afterExpiry = await org.api.post(ACCOUNTS, body, keyed(key));

    expectReplayOf(lastReplay, first);
    // Run again: the account exists, so this time the service refuses it.
    expectStatus(afterExpiry, 400);
    expect(afterExpiry.body).toEqual({ code: ['account with this code already exists.'] });
    expect(afterExpiry.headers.get('idempotent-replayed')).toBeNull();
    expect(await countOf(org.api, ACCOUNTS)).toBe(1);
  });
});
