/**
 * GET /api/v1/accounts/: envelope, pagination (default 20, max 100, absolute next/previous that
 * keep filters), ordering, every filter backed by this slice's data, invalid filter values and the
 * Fields header.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../support/platform.js';
import {
  ACCOUNTS,
  accountPath,
  createAccount,
  createRecipient,
  expectStatus,
  listCodes,
  newOrganization,
  pathOf,
  SCHEMA_PATTERN,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

describe('envelope', () => {
  it('is empty for a new organization', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(ACCOUNTS);

    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('lists full accounts, the same objects the detail endpoint returns', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'env-1', { company_name: 'One' });
    await createRecipient(api, account.uuid);
    const detail = (await api.get(accountPath('env-1'))).body;

    const response = await api.get(ACCOUNTS);

    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 1, next: null, previous: null, results: [detail] });
  });

  it('applies the Fields header to every result', async () => {
    const { api } = await newOrganization(platform());
    platform().clock.set('2026-05-01T00:00:00Z');
    await createAccount(api, 'f-1', { company_name: 'First' });
    platform().clock.advanceSeconds(1);
    await createAccount(api, 'f-2');

    const response = await api.get(ACCOUNTS, { headers: { Fields: 'code,company_name' } });

    expectStatus(response, 200);
    const schema = expect.stringMatching(SCHEMA_PATTERN);
    expect(response.body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        { code: 'f-1', company_name: 'First', model: 'account', schema },
        { code: 'f-2', company_name: null, model: 'account', schema },
      ],
    });
  });
});

describe('pagination', () => {
  const TOTAL = 105;
  const codes = Array.from({ length: TOTAL }, (_, i) => `p-${String(i).padStart(3, '0')}`);
  const dkCodes = codes.filter((_, i) => i % 2 === 0); // 53
  let api: ApiClient;

  beforeAll(async () => {
    ({ api } = await newOrganization(platform()));
    for (let start = 0; start < TOTAL; start += 15) {
      await Promise.all(
        codes
          .slice(start, start + 15)
          .map((code, j) => createAccount(api, code, { legal_country: (start + j) % 2 === 0 ? 'DK' : 'SE' })),
      );
    }
  });

  it('serves 20 per page by default with an absolute next URL', async () => {
    const response = await api.get(ACCOUNTS);

    expectStatus(response, 200);
    expect(response.body.count).toBe(TOTAL);
    expect(response.body.results).toHaveLength(20);
    expect(response.body.previous).toBeNull();
    const next = new URL(response.body.next);
    expect(next.origin).toBe(new URL(platform().baseUrl).origin);
    expect(next.pathname).toBe(ACCOUNTS);
    expect(Object.fromEntries(next.searchParams)).toEqual({ page: '2' });
  });

  it('caps page_size at 100', async () => {
    const first = await api.get(`${ACCOUNTS}?page_size=500`);

    expectStatus(first, 200);
    expect(first.body.count).toBe(TOTAL);
    expect(first.body.results).toHaveLength(100);
    const second = await api.get(pathOf(first.body.next));
    expectStatus(second, 200);
    expect(second.body.results).toHaveLength(TOTAL - 100);
    expect(second.body.next).toBeNull();
  });

  it('honours page_size and page', async () => {
    expect(await listCodes(api, 'ordering=code&page_size=7&page=3')).toEqual(codes.slice(14, 21));
  });

  it('next and previous keep the filters and move the page', async () => {
    const first = await api.get(`${ACCOUNTS}?legal_country=DK&ordering=code`);
    expectStatus(first, 200);
    expect(first.body.count).toBe(dkCodes.length);

    const next = new URL(first.body.next);
    expect(next.origin).toBe(new URL(platform().baseUrl).origin);
    expect(next.pathname).toBe(ACCOUNTS);
    expect(Object.fromEntries(next.searchParams)).toEqual({ legal_country: 'DK', ordering: 'code', page: '2' });

    const second = await api.get(pathOf(first.body.next));
    expectStatus(second, 200);
    const previous = new URL(second.body.previous);
    expect(previous.origin).toBe(new URL(platform().baseUrl).origin);
    expect(previous.pathname).toBe(ACCOUNTS);
    expect(previous.searchParams.get('legal_country')).toBe('DK');
    expect(previous.searchParams.get('ordering')).toBe('code');
    expect([null, '1']).toContain(previous.searchParams.get('page'));
    const back = await api.get(pathOf(second.body.previous));
    expect(back.body).toEqual(first.body);
  });

  it('following next from the first page yields every match exactly once', async () => {
    const seen: string[] = [];
    let path: string | null = `${ACCOUNTS}?legal_country=DK&ordering=code&page_size=10`;
    let pages = 0;
    while (path) {
      const response: ApiResponse = await api.get(path);
      expectStatus(response, 200);
      expect(response.body.count).toBe(dkCodes.length);
      seen.push(...response.body.results.map((account: { code: string }) => account.code));
      path = response.body.next ? pathOf(response.body.next) : null;
      pages += 1;
    }
    expect(pages).toBe(6);
    expect(seen).toEqual(dkCodes);
  });

  it.each(['99', '0', 'abc'])('page=%s is 404 Invalid page.', async (page) => {
    const response = await api.get(`${ACCOUNTS}?page=${page}`);

    expectStatus(response, 404);
    expect(response.body).toEqual({ detail: 'Invalid page.' });
  });

  it('the last page has no next', async () => {
    const response = await api.get(`${ACCOUNTS}?page=6`);

    expectStatus(response, 200);
    expect(response.body.results).toHaveLength(5);
    expect(response.body.next).toBeNull();
    expect(new URL(response.body.previous).searchParams.get('page')).toBe('5');
  });
});

describe('ordering', () => {
  let api: ApiClient;

  beforeAll(async () => {
    ({ api } = await newOrganization(platform()));
    platform().clock.set('2026-06-01T12:00:00Z');
    await createAccount(api, 'm-second');
    platform().clock.advanceSeconds(1);
    await createAccount(api, 'a-third');
    platform().clock.advanceSeconds(1);
    await createAccount(api, 'z-first');
  });

  it('is oldest first by default', async () => {
    expect(await listCodes(api, '')).toEqual(['m-second', 'a-third', 'z-first']);
  });

  it.each([
    ['created_date', ['m-second', 'a-third', 'z-first']],
    ['-created_date', ['z-first', 'a-third', 'm-second']],
    ['code', ['a-third', 'm-second', 'z-first']],
    ['-code', ['z-first', 'm-second', 'a-third']],
  ])('ordering=%s', async (ordering, expected) => {
    expect(await listCodes(api, `ordering=${ordering}`)).toEqual(expected);
  });
});

describe('filters on account fields', () => {
  let api: ApiClient;
  const uuids: Record<string, string> = {};

  beforeAll(async () => {
    ({ api } = await newOrganization(platform()));
    platform().clock.set('2026-07-01T00:00:00Z');
    const specs: Array<[string, Record<string, unknown>]> = [
      ['alpha-1', { company_name: 'Nordic Widgets ApS', legal_country: 'DK', ean_invoicing: true }],
      ['beta-2', { first_name: 'Jane', last_name: 'Widgetson', legal_country: 'SE', type: 'person' }],
      ['widget-3', { legal_country: 'DK', is_getting_reminders: false }],
      ['gamma-4', { company_name: 'Other Company', type: 'company', legal_country: 'NO' }],
      ['delta-5', { company_name: 'Person With Company Name', type: 'person', legal_country: 'DK' }],
    ];
    for (const [code, fields] of specs) {
      platform().clock.advanceSeconds(1);
      uuids[code] = (await createAccount(api, code, fields)).uuid;
    }
  });

  it.each([
    ['code=alpha-1', ['alpha-1']],
    ['code=alpha', []],
    ['legal_country=DK', ['alpha-1', 'widget-3', 'delta-5']],
    ['legal_country=SE', ['beta-2']],
    ['legal_country=US', []],
    ['ean_invoicing=true', ['alpha-1']],
    ['ean_invoicing=false', ['beta-2', 'widget-3', 'gamma-4', 'delta-5']],
    ['is_getting_reminders=false', ['widget-3']],
    ['is_getting_reminders=true', ['alpha-1', 'beta-2', 'gamma-4', 'delta-5']],
    ['is_archived=false', ['alpha-1', 'beta-2', 'widget-3', 'gamma-4', 'delta-5']],
    ['is_archived=true', []],
    ['type=company', ['alpha-1', 'gamma-4']],
    ['type=person', ['beta-2', 'widget-3', 'delta-5']],
    ['search=WIDGET', ['alpha-1', 'beta-2', 'widget-3']],
    ['search=jane', ['beta-2']],
    ['search=other%20comp', ['gamma-4']],
    ['search=ETA-', ['beta-2']],
    ['search=nothing-matches', []],
    ['legal_country=DK&search=widget', ['alpha-1', 'widget-3']],
    ['legal_country=DK&type=company', ['alpha-1']],
  ])('%s', async (query, expected) => {
    const response = await api.get(`${ACCOUNTS}?${query}`);
    expectStatus(response, 200);
    expect(response.body.count).toBe(expected.length);
    expect(response.body.results.map((account: { code: string }) => account.code)).toEqual(expected);
  });

  it('uuid matches exactly one account', async () => {
    expect(await listCodes(api, `uuid=${uuids['gamma-4']}`)).toEqual(['gamma-4']);
    expect(await listCodes(api, 'uuid=0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11')).toEqual([]);
  });
});

describe('filter has_recipient_receiving_invoices', () => {
  it('matches accounts with a recipient that receives invoices', async () => {
    const { api } = await newOrganization(platform());
    platform().clock.set('2026-07-10T00:00:00Z');
    const receiving = await createAccount(api, 'rcv-invoices');
    platform().clock.advanceSeconds(1);
    const notReceiving = await createAccount(api, 'rcv-other');
    platform().clock.advanceSeconds(1);
    await createAccount(api, 'rcv-none');
    await createRecipient(api, receiving.uuid, { receive_invoice: true });
    await createRecipient(api, notReceiving.uuid, { receive_invoice: false, receive_payment_confirmation: true });

    expect(await listCodes(api, 'has_recipient_receiving_invoices=true')).toEqual(['rcv-invoices']);
    expect(await listCodes(api, 'has_recipient_receiving_invoices=false')).toEqual(['rcv-other', 'rcv-none']);
  });
});

describe('date filters', () => {
  let api: ApiClient;
  const created: Record<string, string> = {};

  beforeAll(async () => {
    ({ api } = await newOrganization(platform()));
    for (const [code, at] of [
      ['d-1', '2026-03-01T10:00:00Z'],
      ['d-2', '2026-03-02T10:00:00Z'],
      ['d-3', '2026-03-03T10:00:00Z'],
    ] as const) {
      platform().clock.set(at);
      created[code] = (await createAccount(api, code)).created_date;
    }
    platform().clock.set('2026-03-04T12:00:00Z');
    const patched = await api.patch(accountPath('d-1'), { company_name: 'Touched' });
    expectStatus(patched, 200);
  });

  it('timestamps come from the platform clock', async () => {
    expect(new Date(created['d-1']!).toISOString()).toBe('2026-03-01T10:00:00.000Z');
    const d1 = (await api.get(accountPath('d-1'))).body;
    expect(d1.created_date).toBe(created['d-1']);
    expect(new Date(d1.last_modified_date).toISOString()).toBe('2026-03-04T12:00:00.000Z');
  });

  it.each([
    ['created_date__gte=2026-03-02T10:00:00Z', ['d-2', 'd-3']],
    ['created_date__gte=2026-03-02T10:00:01Z', ['d-3']],
    ['created_date__lte=2026-03-02T10:00:00Z', ['d-1', 'd-2']],
    ['created_date__lte=2026-03-02T09:59:59Z', ['d-1']],
    ['created_date__gte=2026-03-01T10:00:01Z&created_date__lte=2026-03-03T09:59:59Z', ['d-2']],
    ['created_date__gte=2026-03-05T00:00:00Z', []],
    ['last_modified_date__gte=2026-03-04T00:00:00Z', ['d-1']],
    ['last_modified_date__lte=2026-03-03T10:00:00Z', ['d-2', 'd-3']],
    ['last_modified_date__gte=2026-03-02T00:00:00Z&last_modified_date__lte=2026-03-02T23:59:59Z', ['d-2']],
  ])('%s', async (query, expected) => {
    expect(await listCodes(api, query)).toEqual(expected);
  });
});

describe('filters served by other services', () => {
  it('reseller_program=true matches accounts another account names as reseller', async () => {
    const { api } = await newOrganization(platform());
    platform().clock.set('2026-08-01T00:00:00Z');
    await createAccount(api, 'the-reseller');
    platform().clock.advanceSeconds(1);
    await createAccount(api, 'resold', { reseller_code: 'the-reseller' });
    platform().clock.advanceSeconds(1);
    await createAccount(api, 'standalone');

    expect(await listCodes(api, 'reseller_program=true')).toEqual(['the-reseller']);
  });

  it.each([
    'subscription_status=active',
    'subscription_collection_method=invoice',
    'subscription_set_to_expire=true',
    'registered_for_direct_debit=true',
  ])('%s is accepted and matches no account while no subscriptions exist', async (query) => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'no-subscriptions');

    const response = await api.get(`${ACCOUNTS}?${query}`);

    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });
});

describe('invalid filter values', () => {
  it.each([
    ['created_date__gte', 'yesterday'],
    ['created_date__lte', '2026-13-01T00:00:00Z'],
    ['last_modified_date__gte', 'soon'],
    ['last_modified_date__lte', 'later'],
    ['is_archived', 'maybe'],
    ['is_getting_reminders', 'perhaps'],
    ['ean_invoicing', 'sometimes'],
    ['has_recipient_receiving_invoices', 'dunno'],
    ['uuid', 'not-a-uuid'],
    ['type', 'robot'],
  ])('%s=%s is 400 naming the filter', async (filter, value) => {
    const { api } = await newOrganization(platform());

    const response = await api.get(`${ACCOUNTS}?${filter}=${value}`);

    expectStatus(response, 400);
    expect(response.body).toEqual({ [filter]: [expect.any(String)] });
  });
});
