/**
 * Churn reasons, part of the organization's settings (api-spec "Churn reason": uuid, name,
 * is_active): /api/v1/churn-reasons/ GET (envelope), POST; /{uuid}/ GET, PUT, PATCH, DELETE.
 * Served by the accounts service; another organization's reason is 404.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  pathOf,
  REQUIRED,
  SCHEMA_PATTERN,
  UUID_PATTERN,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

const REASONS = '/api/v1/churn-reasons/';
const reasonPath = (uuid: string) => `${REASONS}${uuid}/`;

function expectedReason(name: string, isActive = true, uuid: unknown = expect.stringMatching(UUID_PATTERN)): Json {
  return { uuid, name, is_active: isActive, model: 'churn_reason', schema: expect.stringMatching(SCHEMA_PATTERN) };
}

async function createReason(api: ApiClient, body: Json) {
  // Creation order is the default list order; the platform clock stands still unless moved.
  platform().clock.advanceMs(1_000);
  const response = await api.post(REASONS, body);
  expectStatus(response, 201);
  return response.body;
}

describe('POST /api/v1/churn-reasons/', () => {
  it('creates an active reason: 201 with the reason', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(REASONS, { name: 'Too expensive' });

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedReason('Too expensive'));
    expect(response.body.schema).toBe('2026-11-22-churn_reason');
  });

  it('takes is_active, trims the name and ignores response-only and unknown fields', async () => {
    const { api } = await newOrganization(platform());
    const uuid = randomUUID();

    const response = await api.post(REASONS, {
      name: '  Moved to a competitor ',
      is_active: false,
      uuid,
      colour: 'red',
    });

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedReason('Moved to a competitor', false));
    expect(response.body.uuid).not.toBe(uuid);
  });

  it('accepts a name of exactly 100 characters', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(REASONS, { name: 'x'.repeat(100) });

    expectStatus(response, 201);
    expect(response.body.name).toBe('x'.repeat(100));
  });

  it.each([
    ['no name', {}, { name: [REQUIRED] }],
    ['a null name', { name: null }, { name: ['This field may not be null.'] }],
    ['a blank name', { name: '   ' }, { name: ['This field may not be blank.'] }],
    [
      'a name over 100 characters',
      { name: 'x'.repeat(101) },
      { name: ['Ensure this field has no more than 100 characters.'] },
    ],
    ['a non-boolean is_active', { name: 'Price', is_active: 'sometimes' }, { is_active: ['Must be a valid boolean.'] }],
    ['a null is_active', { name: 'Price', is_active: null }, { is_active: ['This field may not be null.'] }],
  ])('refuses %s with a 400 naming the field, creating nothing', async (_case, body, errors) => {
    const { api } = await newOrganization(platform());

    const response = await api.post(REASONS, body);

    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: errors });
    expect((await api.get(REASONS)).body.count).toBe(0);
  });
});

describe('GET /api/v1/churn-reasons/', () => {
  it('answers the empty envelope for an organization without reasons', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(REASONS);

    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('lists oldest first, paginated with absolute next/previous links', async () => {
    const { api } = await newOrganization(platform());
    const reasons = [];
    for (const name of ['Price', 'Features', 'Support', 'Moved', 'Closed'])
      reasons.push(await createReason(api, { name }));

    const first = await api.get(`${REASONS}?page_size=2`);
    expectStatus(first, 200);
    expect(first.body).toEqual({
      count: 5,
      next: `${platform().baseUrl}${REASONS}?page=2&page_size=2`,
      previous: null,
      results: [reasons[0], reasons[1]],
    });
    const second = await api.get(pathOf(first.body.next));
    expect(second.body).toEqual({
      count: 5,
      next: `${platform().baseUrl}${REASONS}?page=3&page_size=2`,
      previous: `${platform().baseUrl}${REASONS}?page_size=2`,
      results: [reasons[2], reasons[3]],
    });
    const last = await api.get(pathOf(second.body.next));
    expect(last.body).toMatchObject({ count: 5, next: null, results: [reasons[4]] });
    expect((await api.get(`${REASONS}?page=4&page_size=2`)).body).toEqual({ detail: 'Invalid page.' });
  });

  it('orders by name or newest first, and filters by is_active', async () => {
    const { api } = await newOrganization(platform());
    const price = await createReason(api, { name: 'Price' });
    const bankrupt = await createReason(api, { name: 'Bankrupt', is_active: false });
    const features = await createReason(api, { name: 'Features' });

    const names = async (query: string) => {
      const response = await api.get(`${REASONS}?${query}`);
      expectStatus(response, 200);
      return response.body.results.map((reason: Json) => reason.name);
    };
    expect(await names('ordering=name')).toEqual(['Bankrupt', 'Features', 'Price']);
    expect(await names('ordering=-created_date')).toEqual(['Features', 'Bankrupt', 'Price']);
    expect((await api.get(`${REASONS}?is_active=true`)).body).toMatchObject({ count: 2, results: [price, features] });
    expect((await api.get(`${REASONS}?is_active=False`)).body).toMatchObject({ count: 1, results: [bankrupt] });
    expect(await api.get(`${REASONS}?is_active=maybe`)).toMatchObject({
      status: 400,
      body: { is_active: ['Select a valid choice. maybe is not one of the available choices.'] },
    });
  });

  it('also answers on /api/v1/churn_reasons/', async () => {
    const { api } = await newOrganization(platform());
    const reason = await createReason(api, { name: 'Price' });

    expect((await api.get('/api/v1/churn_reasons/')).body).toMatchObject({ count: 1, results: [reason] });
    expect((await api.get(`/api/v1/churn_reasons/${reason.uuid}/`)).body).toEqual(reason);
  });
});

describe('/api/v1/churn-reasons/{uuid}/', () => {
  it('GET answers the reason', async () => {
    const { api } = await newOrganization(platform());
    const reason = await createReason(api, { name: 'Price' });

    const response = await api.get(reasonPath(reason.uuid));

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedReason('Price', true, reason.uuid));
  });

  it('PATCH changes only what was sent', async () => {
    const { api } = await newOrganization(platform());
    const reason = await createReason(api, { name: 'Price' });

    const deactivated = await api.patch(reasonPath(reason.uuid), { is_active: false });
    expectStatus(deactivated, 200);
    expect(deactivated.body).toEqual(expectedReason('Price', false, reason.uuid));

    const renamed = await api.patch(reasonPath(reason.uuid), { name: 'Pricing' });
    expect(renamed.body).toEqual(expectedReason('Pricing', false, reason.uuid));
    expect((await api.get(reasonPath(reason.uuid))).body).toEqual(renamed.body);
  });

  it('PUT needs the name; is_active stays as it was when not sent', async () => {
    const { api } = await newOrganization(platform());
    const reason = await createReason(api, { name: 'Price', is_active: false });

    expect(await api.put(reasonPath(reason.uuid), { is_active: true })).toMatchObject({
      status: 400,
      body: { name: [REQUIRED] },
    });
    const replaced = await api.put(reasonPath(reason.uuid), { name: 'Cost' });
    expectStatus(replaced, 200);
    expect(replaced.body).toEqual(expectedReason('Cost', false, reason.uuid));
    const reactivated = await api.put(reasonPath(reason.uuid), { name: 'Cost', is_active: true });
    expect(reactivated.body).toEqual(expectedReason('Cost', true, reason.uuid));
  });

  it('PATCH refuses a blank or too long name, changing nothing', async () => {
    const { api } = await newOrganization(platform());
    const reason = await createReason(api, { name: 'Price' });

    expect(await api.patch(reasonPath(reason.uuid), { name: '' })).toMatchObject({
      status: 400,
      body: { name: ['This field may not be blank.'] },
    });
    expect(await api.patch(reasonPath(reason.uuid), { name: 'y'.repeat(101) })).toMatchObject({
      status: 400,
      body: { name: ['Ensure this field has no more than 100 characters.'] },
    });
    expect((await api.get(reasonPath(reason.uuid))).body).toEqual(reason);
  });

  it('DELETE answers 204; the reason is gone from GET, PATCH, DELETE and the list', async () => {
    const { api } = await newOrganization(platform());
    const kept = await createReason(api, { name: 'Price' });
    const reason = await createReason(api, { name: 'Features' });

    const response = await api.delete(reasonPath(reason.uuid));

    expect({ status: response.status, text: response.text }).toEqual({ status: 204, text: '' });
    expect(await api.get(reasonPath(reason.uuid))).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await api.patch(reasonPath(reason.uuid), { name: 'Back' })).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await api.delete(reasonPath(reason.uuid))).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await api.get(REASONS)).body).toEqual({ count: 1, next: null, previous: null, results: [kept] });
  });

  it('an unknown uuid, or text that is no uuid, is 404', async () => {
    const { api } = await newOrganization(platform());

    expect(await api.get(reasonPath(randomUUID()))).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await api.get(reasonPath('price'))).toMatchObject({ status: 404, body: NOT_FOUND });
  });
});

describe('tenancy', () => {
  it("another organization's reason is 404 to every method and absent from the list", async () => {
    const owner = await newOrganization(platform());
    const other = await newOrganization(platform());
    const reason = await createReason(owner.api, { name: 'Price' });

    for (const response of [
      await other.api.get(reasonPath(reason.uuid)),
      await other.api.put(reasonPath(reason.uuid), { name: 'Stolen' }),
      await other.api.patch(reasonPath(reason.uuid), { is_active: false }),
      await other.api.delete(reasonPath(reason.uuid)),
    ]) {
      expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect((await other.api.get(REASONS)).body.count).toBe(0);
    expect((await owner.api.get(reasonPath(reason.uuid))).body).toEqual(reason);
  });
});

describe('audit', () => {
  it('writes one audit row per change, naming the caller', async () => {
    const { api, organizationId, apiUserId } = await newOrganization(platform());
    const reason = await createReason(api, { name: 'Price' });
    await api.put(reasonPath(reason.uuid), { name: 'Cost' });
    await api.patch(reasonPath(reason.uuid), { is_active: false });
    await api.delete(reasonPath(reason.uuid));
    await api.patch(reasonPath(reason.uuid), { name: 'refused: gone' });

    const rows = (await platform().auditLog(organizationId)).filter((row) => row.object_type === 'churn_reason');
    expect(rows.map((row) => row.action).sort()).toEqual([
      'churn_reason.create',
      'churn_reason.delete',
      'churn_reason.replace',
      'churn_reason.update',
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ api_user_id: apiUserId, client_system: 'contract-tests', object_id: reason.uuid });
    }
  });
});

describe('API description', () => {
  it('documents every operation', async () => {
    const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.entries(document.paths[REASONS] ?? {}).map(
      ([method, op]) => `${method} ${op.operationId}`,
    );
    const detail = Object.entries(document.paths[`${REASONS}{uuid}/`] ?? {}).map(
      ([method, op]) => `${method} ${op.operationId}`,
    );
    expect(operations.sort()).toEqual(['get listChurnReasons', 'post createChurnReason']);
    expect(detail.sort()).toEqual([
      'delete deleteChurnReason',
      'get getChurnReason',
      'patch updateChurnReason',
      'put replaceChurnReason',
    ]);
  });
});
