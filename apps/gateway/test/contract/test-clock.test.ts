/**
 * Test mode through HTTP: an organization created on its own clock sees that clock on GET
 * /api/v1/test-clock/, moves it with POST /api/v1/test-clock/advance/, and every service it calls
 * works in that time (here: the accounts service stamping what it writes). Organizations on the
 * real clock get 404 from both endpoints.
 *
 * What the subscriptions service does with the move (ProcessDue) is tested with its engine; see
 * `advance` below for how its answer is read until ProcessDue is served.
 */

import { describe, expect, it } from 'vitest';
import { DRF_MESSAGES } from '../../src/http/index.js';
import type { ApiClient, ApiResponse } from '../support/platform.js';
import {
  ACCOUNTS,
  accountInput,
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  INVALID_TOKEN,
  NOT_FOUND,
  newOrganization,
  uniqueCode,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

const TEST_CLOCK = '/api/v1/test-clock/';
const ADVANCE = '/api/v1/test-clock/advance/';
const START = '2026-03-01T10:00:00.000Z';

const testModeOrganization = (settings: { time_zone?: string; test_clock_time?: string } = {}) =>
  newOrganization(platform(), { test_clock_time: START, ...settings });

/** Moves the clock through HTTP; the answer comes after the subscriptions service processed what became due. */
async function advance(api: ApiClient, to: string, expected: { time: string; time_zone: string }): Promise<void> {
  const response = await api.post(ADVANCE, { to });
  expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: expected });
}

async function clockOf(api: ApiClient): Promise<ApiResponse> {
  return api.get(TEST_CLOCK);
}

describe('GET /api/v1/test-clock/', () => {
  it("shows a test-mode organization's time and time zone", async () => {
    const { api } = await testModeOrganization({ time_zone: 'America/New_York' });

    const response = await clockOf(api);

    expectStatus(response, 200);
    expect(response.body).toEqual({ time: START, time_zone: 'America/New_York' });
  });

  it('answers 404 for an organization on the real clock, to GET and to advance', async () => {
    const { api, organizationId } = await newOrganization(platform());

    expect(await clockOf(api)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await api.post(ADVANCE, { to: START })).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await platform().auditLog(organizationId)).toEqual([
      expect.objectContaining({ action: 'organization.create' }),
    ]);
  });

  it('needs a token like every endpoint', async () => {
    const { api } = await testModeOrganization();

    const anonymous = await api.raw(TEST_CLOCK, { headers: { 'X-Client-System': 'contract-tests' } });

    expect({ status: anonymous.status, body: anonymous.body }).toEqual({ status: 401, body: INVALID_TOKEN });
  });
});

describe('POST /api/v1/test-clock/advance/', () => {
  it('moves the clock forward: GET shows the new time, with one audit row naming the caller', async () => {
    const { api, organizationId, apiUserId } = await testModeOrganization();

    await advance(api, '2026-04-01T10:00:00Z', { time: '2026-04-01T10:00:00.000Z', time_zone: 'Europe/Copenhagen' });

    expect((await clockOf(api)).body).toEqual({ time: '2026-04-01T10:00:00.000Z', time_zone: 'Europe/Copenhagen' });
    const audit = await platform().auditLog(organizationId);
    expect(audit.filter((row) => row.action === 'organization.advance_test_clock')).toEqual([
      {
        organization_id: organizationId,
        api_user_id: apiUserId,
        client_system: 'contract-tests',
        external_user: null,
        request_id: expect.any(String),
        action: 'organization.advance_test_clock',
        object_type: 'organization',
        object_id: organizationId,
      },
    ]);
  });

  it('takes an offset, and text without one as UTC', async () => {
    const { api } = await testModeOrganization();

    await advance(api, '2026-03-01T12:00:00+01:00', {
      time: '2026-03-01T11:00:00.000Z',
      time_zone: 'Europe/Copenhagen',
    });
    expect((await clockOf(api)).body.time).toBe('2026-03-01T11:00:00.000Z');

    await advance(api, '2026-03-02T00:00', { time: '2026-03-02T00:00:00.000Z', time_zone: 'Europe/Copenhagen' });
    expect((await clockOf(api)).body.time).toBe('2026-03-02T00:00:00.000Z');
  });

  it("allows the clock's own time (to re-run processing) and refuses any earlier time, naming `to`", async () => {
    const { api, organizationId } = await testModeOrganization();

    await advance(api, START, { time: START, time_zone: 'Europe/Copenhagen' });
    const earlier = await api.post(ADVANCE, { to: '2026-03-01T09:59:59.999Z' });

    expect({ status: earlier.status, body: earlier.body }).toEqual({
      status: 400,
      body: { to: [`Ensure this value is not earlier than the test clock's time, ${START}.`] },
    });
    expect((await clockOf(api)).body.time).toBe(START);
    const moves = (await platform().auditLog(organizationId)).filter(
      (row) => row.action === 'organization.advance_test_clock',
    );
    expect(moves).toHaveLength(1);
  });

  it.each([
    ['no body', undefined, DRF_MESSAGES.required],
    ['no `to`', { until: '2026-04-01T00:00:00Z' }, DRF_MESSAGES.required],
    ['null', { to: null }, DRF_MESSAGES.null],
    ['not a time', { to: 'tomorrow' }, DRF_MESSAGES.invalidDatetime],
    ['a day that does not exist', { to: '2026-02-30T00:00:00Z' }, DRF_MESSAGES.invalidDatetime],
    ['a number', { to: 1767225600 }, DRF_MESSAGES.invalidDatetime],
  ])('refuses %s with a 400 naming `to`, leaving the clock', async (_case, body, message) => {
    const { api } = await testModeOrganization();

    const response = await api.post(ADVANCE, body);

    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { to: [message] } });
    expect((await clockOf(api)).body.time).toBe(START);
  });

  it('moves only the calling organization’s clock', async () => {
    const first = await testModeOrganization();
    const second = await testModeOrganization();

    await advance(first.api, '2026-05-01T00:00:00Z', {
      time: '2026-05-01T00:00:00.000Z',
      time_zone: 'Europe/Copenhagen',
    });

    expect((await clockOf(first.api)).body.time).toBe('2026-05-01T00:00:00.000Z');
    expect((await clockOf(second.api)).body.time).toBe(START);
  });

  it('GET and POST only: other methods are 405', async () => {
    const { api } = await testModeOrganization();

    expect((await api.post(TEST_CLOCK, { to: START })).status).toBe(405);
    expect((await api.get(ADVANCE)).status).toBe(405);
  });
});

describe('the advance waits for work begun before it', () => {
  const INVOICES = '/api/v1/invoices/';

  /** An account with a subscription of 1 × 100.00 DKK monthly made just now (its charge is on its way to invoicing). */
  async function freshSubscription(api: ApiClient, body: Record<string, unknown> = {}) {
    const account = await createAccount(api);
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid, { price: '100.00', currency: 'DKK' });
    const created = await api.post('/api/v1/subscriptions/', {
      account: account.code,
      terms: terms.uuid,
      collection_method: 'invoice',
      ...body,
    });
    expectStatus(created, 201);
    return account.code as string;
  }

  const invoiceTotals = async (api: ApiClient, code: string) => {
    const response = await api.get(`${INVOICES}?account=${code}`);
    expectStatus(response, 200);
    return (response.body.results as Array<{ total: number; date: string }>).map(({ total, date }) => ({
      total,
      date,
    }));
  };

  it('a subscription made just before an advance is invoiced when the advance answers (the race, 20 times)', async () => {
    const { api } = await testModeOrganization({ time_zone: 'UTC' });
    const seen: Array<Array<{ total: number; date: string }>> = [];
    for (let minute = 1; minute <= 20; minute++) {
      const code = await freshSubscription(api);
      const to = new Date(Date.parse(START) + minute * 60_000).toISOString();
      await advance(api, to, { time: to, time_zone: 'UTC' });
      seen.push(await invoiceTotals(api, code));
    }
    // 100.00 + 25 % VAT (the organization and its accounts are Danish by default).
    expect(seen).toEqual(Array.from({ length: 20 }, () => [{ total: 125, date: '2026-03-01' }]));
    // Twenty rounds of five requests and an advance: over the file's 30 s on a loaded machine.
  }, 180_000);

  it('a grouped renewal invoice waiting in its group window is issued before the advance answers', async () => {
    const { api } = await testModeOrganization({ time_zone: 'UTC' });
    const code = await freshSubscription(api, { group_on_invoice: true });

    await advance(api, '2026-03-01T10:01:00Z', { time: '2026-03-01T10:01:00.000Z', time_zone: 'UTC' });

    expect(await invoiceTotals(api, code)).toEqual([{ total: 125, date: '2026-03-01' }]);
  });
});

describe("the organization's time reaches the services", () => {
  it('what a service writes for a test-mode organization carries the test clock time, after every move', async () => {
    const { api } = await testModeOrganization();
    const create = async () => {
      const response = await api.post(ACCOUNTS, accountInput(uniqueCode()));
      expectStatus(response, 201);
      return response.body;
    };

    expect((await create()).created_date).toBe(START);
    // The gateway's own clock never moves in these tests, so a cached authentication would keep
    // serving the old time for ever: the new time on the next requests shows nothing was cached.
    await advance(api, '2026-06-15T08:30:00Z', { time: '2026-06-15T08:30:00.000Z', time_zone: 'Europe/Copenhagen' });
    const account = await create();
    expect({ created: account.created_date, modified: account.last_modified_date }).toEqual({
      created: '2026-06-15T08:30:00.000Z',
      modified: '2026-06-15T08:30:00.000Z',
    });
    await advance(api, '2026-06-16T00:00:00Z', { time: '2026-06-16T00:00:00.000Z', time_zone: 'Europe/Copenhagen' });
    const patched = await api.patch(`${ACCOUNTS}${account.code}/`, { company_name: 'Later ApS' });
    expectStatus(patched, 200);
    expect({ created: patched.body.created_date, modified: patched.body.last_modified_date }).toEqual({
      created: '2026-06-15T08:30:00.000Z',
      modified: '2026-06-16T00:00:00.000Z',
    });
  });

  it('every token of the organization sees the moved clock at once', async () => {
    const owner = await testModeOrganization();
    const other = await platform().createToken(owner.organizationId);
    expect((await clockOf(other.api)).body.time).toBe(START);

    await advance(owner.api, '2026-07-01T00:00:00Z', {
      time: '2026-07-01T00:00:00.000Z',
      time_zone: 'Europe/Copenhagen',
    });

    expect((await clockOf(other.api)).body.time).toBe('2026-07-01T00:00:00.000Z');
  });

  it('an organization on the real clock is stamped with the platform clock', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(ACCOUNTS, accountInput(uniqueCode()));

    expectStatus(response, 201);
    expect(response.body.created_date).toBe(platform().clock.now().toISOString());
  });
});

describe('API description', () => {
  it('documents both operations', async () => {
    const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.paths[TEST_CLOCK]?.get?.operationId).toBe('getTestClock');
    expect(document.paths[ADVANCE]?.post?.operationId).toBe('advanceTestClock');
  });
});
