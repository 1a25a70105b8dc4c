/**
 * gaps.md §9 through HTTP: the account list's export. Its CSV is the list, row for row, sets
 * (subscription_set, recipient_set, ...) and custom_fields as JSON in one column each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  cellsOf,
  columnsOf,
  csvFileOf,
  downloadCsv,
  downloadPath,
  finishedJob,
  jobPath,
  startExport,
} from './exports-helpers.js';
import {
  ACCOUNTS,
  createAccount,
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  RECIPIENTS,
  uniqueCode,
  usePlatform,
} from './helpers.js';
import { createSubscription, subscriptionFixture } from './subscriptions-helpers.js';

const platform = usePlatform();

describe('POST /api/v1/accounts/export/', () => {
  let api: ApiClient;
  beforeAll(async () => {
    ({ api } = await newOrganization(platform()));
    const fixture = await subscriptionFixture(api, {
      account: { company_name: 'Acme, "the" ApS', legal_country: 'DE', custom_fields: { tier: 'gold' } },
    });
    await createSubscription(api, fixture, { quantity: 2 });
    expectStatus(
      await api.post(RECIPIENTS, { account: fixture.account.uuid, name: 'Ada', email: 'ada@example.com' }),
      201,
    );
    await createAccount(api, uniqueCode(), { company_name: 'Bøgh & Søn', legal_city: 'København\nØ' });
    await createAccount(api, uniqueCode(), { first_name: 'Grace', last_name: 'Hopper', legal_country: 'DE' });
  });

  const list = async (query: string): Promise<Json[]> => {
    const response = await api.get(`${ACCOUNTS}?${query}&page_size=100`);
    expectStatus(response, 200);
    return response.body.results as Json[];
  };

  it('is the list, row for row, with its sets', async () => {
    const uuid = await startExport(api, `${ACCOUNTS}export/`, { legal_country: 'DE', ordering: 'code' });
    expect(await finishedJob(api, uuid)).toMatchObject({ status: 'done', progress: 100, rows: 2 });

    const items = await list('legal_country=DE&ordering=code');
    expect(items).toHaveLength(2);
    const columns = columnsOf(items[0]!);
    expect(columns.slice(0, 3)).toEqual(['uuid', 'code', 'display_name']);
    expect(columns).toEqual(expect.arrayContaining(['subscription_set', 'recipient_set', 'custom_fields']));
    const csv = await downloadCsv(api, uuid);
    expect(csv).toBe(
      csvFileOf(
        columns,
        items.map((item) => cellsOf(item, columns)),
      ),
    );
    expect(csv).toContain('"Acme, ""the"" ApS"');
  });

  it('exports every account by default, in the list’s order; 400 naming a bad filter as the list; 404 for another organization', async () => {
    const all = await startExport(api, `${ACCOUNTS}export/`);
    expect(await finishedJob(api, all)).toMatchObject({ status: 'done', rows: 3 });
    const items = await list('');
    const columns = columnsOf(items[0]!);
    expect(await downloadCsv(api, all)).toBe(
      csvFileOf(
        columns,
        items.map((item) => cellsOf(item, columns)),
      ),
    );

    for (const [name, value] of [
      ['legal_country', 'XX'],
      ['created_date__gte', 'soon'],
      ['is_archived', 'maybe'],
    ] as const) {
      const listed = await api.get(`${ACCOUNTS}?${name}=${value}`);
      expectStatus(listed, 400);
      const exported = await api.post(`${ACCOUNTS}export/`, { [name]: value });
      expect({ status: exported.status, body: exported.body }).toEqual({ status: 400, body: listed.body });
    }

    const other = await newOrganization(platform());
    for (const path of [jobPath(all), downloadPath(all)]) {
      const response = await other.api.get(path);
      expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
    }
  });
});
