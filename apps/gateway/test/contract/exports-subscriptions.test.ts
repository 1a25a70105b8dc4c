/**
 * gaps.md §9 through HTTP: the subscription list's export. Its CSV is the list, row for row: each
 * field a column, nested objects (account, terms, plan, churn_reason) as dotted columns.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { cellsOf, columnsOf, csvFileOf, downloadCsv, finishedJob, startExport } from './exports-helpers.js';
import { createAccount, expectStatus, type Json, newOrganization, uniqueCode, usePlatform } from './helpers.js';
import { createChurnReason, createSubscription, SUBSCRIPTIONS, subscriptionFixture } from './subscriptions-helpers.js';

const platform = usePlatform();

describe('POST /api/v1/subscriptions/export/', () => {
  let api: ApiClient;
  let code: string;
  beforeAll(async () => {
    ({ api } = await newOrganization(platform()));
    const fixture = await subscriptionFixture(api, { account: { company_name: 'Acme, "the" ApS' } });
    code = fixture.code;
    const reason = await createChurnReason(api);
    await createSubscription(api, fixture, {
      quantity: 3,
      churn_reason: reason.uuid,
      custom_fields: { cost_center: 'CC-7' },
      po_number: 'PO-1\nline two',
    });
    await createSubscription(api, fixture, { quantity: 1, start_date: '2026-03-01T00:00:00Z' });
    const other = await createAccount(api, uniqueCode());
    await createSubscription(api, { code: other.code as string, terms: fixture.terms }, {});
  });

  const list = async (query: string): Promise<Json[]> => {
    const response = await api.get(`${SUBSCRIPTIONS}?${query}&page_size=100`);
    expectStatus(response, 200);
    return response.body.results as Json[];
  };

  it('is the list, row for row, with every field and nested objects as dotted columns', async () => {
    const uuid = await startExport(api, `${SUBSCRIPTIONS}export/`, { account: code }, 'action_id');
    expect(await finishedJob(api, uuid)).toMatchObject({ status: 'done', progress: 100, rows: 2 });

    const items = await list(`account=${code}`);
    expect(items).toHaveLength(2);
    const columns = columnsOf(items.find((item) => item.churn_reason !== null)!);
    expect(columns).toEqual(expect.arrayContaining(['account.code', 'terms.price', 'plan.code', 'churn_reason.name']));
    expect(await downloadCsv(api, uuid)).toBe(
      csvFileOf(
        columns,
        items.map((item) => cellsOf(item, columns)),
      ),
    );
  });

  it('takes the ordering and every filter of the list; 400 naming the field as the list', async () => {
    const byQuantity = await startExport(api, `${SUBSCRIPTIONS}export/`, { ordering: '-quantity' }, 'action_id');
    expect(await finishedJob(api, byQuantity)).toMatchObject({ status: 'done', rows: 3 });
    const items = await list('ordering=-quantity');
    const columns = columnsOf(items.find((item) => item.churn_reason !== null)!);
    expect(await downloadCsv(api, byQuantity)).toBe(
      csvFileOf(
        columns,
        items.map((item) => cellsOf(item, columns)),
      ),
    );

    const scheduled = await startExport(api, `${SUBSCRIPTIONS}export/`, { status: 'scheduled' }, 'action_id');
    expect(await finishedJob(api, scheduled)).toMatchObject({ status: 'done', rows: 1 });
    const unknownAccount = await startExport(api, `${SUBSCRIPTIONS}export/`, { account: 'nobody' }, 'action_id');
    expect(await finishedJob(api, unknownAccount)).toMatchObject({ status: 'done', rows: 0 });
    expect((await downloadCsv(api, unknownAccount)).split('\r\n')).toHaveLength(2);

    for (const [name, value] of [
      ['status', 'sleeping'],
      ['start_date__gte', 'yesterday'],
      ['plan', 'not-a-uuid'],
    ] as const) {
      const listed = await api.get(`${SUBSCRIPTIONS}?${name}=${value}`);
      expectStatus(listed, 400);
      const exported = await api.post(`${SUBSCRIPTIONS}export/`, { [name]: value });
      expect({ status: exported.status, body: exported.body }).toEqual({ status: 400, body: listed.body });
    }
  });
});
