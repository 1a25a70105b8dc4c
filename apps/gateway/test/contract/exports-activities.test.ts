/**
 * gaps.md §9 through HTTP: the activity and account activity lists' exports, run by the analytics
 * service. Each CSV is its list, row for row (embedded plans as dotted columns), with the list's
 * filters and ordering; a bad filter is the list's 400; another organization's job is 404.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { ACCOUNT_ACTIVITIES, ACTIVITIES, readAnalytics } from './analytics-helpers.js';
import { cellsOf, columnsOf, csvFileOf, downloadCsv, finishedJob, jobPath, startExport } from './exports-helpers.js';
import {
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  usePlatform,
} from './helpers.js';
import { clockOrganization, SUBSCRIPTIONS, subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();

describe('activity exports', () => {
  let api: ApiClient;
  let organizationId: string;
  beforeAll(async () => {
    const org = await clockOrganization(platform(), '2026-01-15T09:00:00Z');
    ({ api, organizationId } = org);
    const reason = await api.post('/api/v1/churn-reasons/', { name: 'Too expensive, "really"' });
    expectStatus(reason, 201);
    const plan = await createPlan(api, 'pro', { name: 'Pro, the plan' });
    const terms = await createPlanTerms(api, plan.uuid, { code: 'pro-monthly', price: '100', currency: 'DKK' });
    await createAccount(api, 'acme', { company_name: 'Acme, "the" ApS' });
    await createAccount(api, 'beta', { company_name: 'Beta ApS' });
    const subscribe = async (account: string, quantity: number) => {
      const created = await api.post(SUBSCRIPTIONS, {
        account,
        terms: terms.uuid,
        quantity,
        collection_method: 'invoice',
      });
      expectStatus(created, 201);
      return created.body.uuid as string;
    };
    const acme = await subscribe('acme', 2);
    const beta = await subscribe('beta', 1);
    await org.advance('2026-01-20T09:00:00Z');
    expectStatus(await api.patch(subscriptionPath(acme), { quantity: 3, churn_reason: reason.body.uuid }), 200);
    await org.advance('2026-01-25T09:00:00Z');
    expectStatus(await api.post(`${subscriptionPath(beta)}cancel/`, { cancellation_type: 'at_renewal' }), 200);
    expectStatus(await api.post(`${subscriptionPath(acme)}cancel/`, { cancellation_type: 'today' }), 200);
    await platform().analyticsCaughtUp();
  });

  /** The list with `query` (every page at once), as the export must write it. */
  const list = async (path: string, query: string): Promise<Json[]> => {
    const body = await readAnalytics(platform(), api, `${path}?page_size=100${query ? `&${query}` : ''}`);
    expect(body.count).toBe(body.results.length);
    return body.results as Json[];
  };

  const csvOfList = (items: Json[], columns: string[]) =>
    csvFileOf(
      columns,
      items.map((item) => cellsOf(item, columns)),
    );

  it('exports the activity list, row for row, plans as dotted columns', async () => {
    const uuid = await startExport(api, `${ACTIVITIES}export/`);
    const items = await list(ACTIVITIES, '');
    const rows = items.map((item) => [item.type, item.date, item.account_code, item.mrr_change] as string[]);
    // Newest first; activities of one moment come in the order analytics recorded them, and an
    // invoice's activity and its subscription's come from two streams that are not ordered against
    // each other: within a moment, compare them as a set (the CSV below must follow the list exactly).
    const dates = rows.map(([, date]) => date!);
    expect(dates).toEqual([...dates].sort().reverse());
    const byMomentThenAccountAndType = (a: string[], b: string[]) =>
      b[1]!.localeCompare(a[1]!) || a[2]!.localeCompare(b[2]!) || a[0]!.localeCompare(b[0]!);
    expect([...rows].sort(byMomentThenAccountAndType)).toEqual([
      ['cancel', '2026-02-15T09:00:00.000Z', 'beta', '-100.00'],
      ['cancel', '2026-01-25T09:00:00.000Z', 'acme', '-300.00'],
      ['invoice_sent', '2026-01-25T09:00:00.000Z', 'acme', null],
      ['invoice_sent', '2026-01-20T09:00:00.000Z', 'acme', null],
      ['upgrade_qty', '2026-01-20T09:00:00.000Z', 'acme', '100.00'],
      ['invoice_sent', '2026-01-15T09:00:00.000Z', 'acme', null],
      ['new', '2026-01-15T09:00:00.000Z', 'acme', '200.00'],
      ['invoice_sent', '2026-01-15T09:00:00.000Z', 'beta', null],
      ['new', '2026-01-15T09:00:00.000Z', 'beta', '100.00'],
    ]);
    expect(await finishedJob(api, uuid)).toMatchObject({ status: 'done', progress: 100, rows: 9 });
    const columns = columnsOf(items.find((item) => item.type === 'upgrade_qty')!);
    expect(columns).toEqual(
      expect.arrayContaining(['old_plan.uuid', 'old_plan.name', 'new_plan.code', 'new_plan.vat_type', 'mrr_change']),
    );
    const csv = await downloadCsv(api, uuid);
    expect(csv).toBe(csvOfList(items, columns));
    expect(csv).toContain('"Acme, ""the"" ApS"');
  });

  it("takes the list's filters and ordering", async () => {
    const cases = [
      { body: { type: 'new,cancel', ordering: 'date' }, query: 'type=new,cancel&ordering=date', rows: 4 },
      { body: { mrr_change_type: 'increase' }, query: 'mrr_change_type=increase', rows: 3 },
      { body: { future: true }, query: 'future=true', rows: 1 },
      { body: { account: 'beta', ordering: '-mrr_change' }, query: 'account=beta&ordering=-mrr_change', rows: 3 },
      { body: { activity_date__gte: '2026-01-20' }, query: 'activity_date__gte=2026-01-20', rows: 5 },
    ];
    for (const { body, query, rows } of cases) {
      const uuid = await startExport(api, `${ACTIVITIES}export/`, body);
      expect({ query, job: await finishedJob(api, uuid) }).toMatchObject({ query, job: { status: 'done', rows } });
      const items = await list(ACTIVITIES, query);
      const columns = columnsOf((await list(ACTIVITIES, 'type=upgrade_qty'))[0]!);
      expect({ query, csv: await downloadCsv(api, uuid) }).toEqual({ query, csv: csvOfList(items, columns) });
    }
    for (const [name, value] of [
      ['type', 'new,sold'],
      ['mrr_change_type', 'up'],
      ['subscription_uuid', '42'],
    ] as const) {
      const listed = await api.get(`${ACTIVITIES}?${name}=${value}`);
      expectStatus(listed, 400);
      const exported = await api.post(`${ACTIVITIES}export/`, { [name]: value });
      expect({ status: exported.status, body: exported.body }).toEqual({ status: 400, body: listed.body });
    }
  });

  it('exports the account activity list with its filters; another organization sees no job', async () => {
    const columns = [
      'uuid',
      'account_uuid',
      'account_code',
      'company_name',
      'type',
      'mrr_change',
      'new_mrr',
      'old_mrr',
      'created_date',
      'date',
      'subscription',
      'is_manual',
      'deleted',
      'churn_reason',
      'account_first_subscription_start_date',
      'model',
      'schema',
    ];
    const all = await startExport(api, `${ACCOUNT_ACTIVITIES}export/`);
    const items = await list(ACCOUNT_ACTIVITIES, '');
    expect(items.map((item) => [item.account_code, item.type, item.churn_reason])).toEqual([
      ['beta', 'churn', ''],
      ['acme', 'churn', 'Too expensive, "really"'],
      ['acme', 'expansion', ''],
      ['beta', 'new_business', ''],
      ['acme', 'new_business', ''],
    ]);
    expect(await finishedJob(api, all)).toMatchObject({ status: 'done', rows: 5 });
    expect(columnsOf(items[0]!)).toEqual(columns);
    expect(await downloadCsv(api, all)).toBe(csvOfList(items, columns));

    const churns = await startExport(api, `${ACCOUNT_ACTIVITIES}export/`, {
      type: 'churn',
      churn_reason: 'Too expensive, "really"',
    });
    expect(await finishedJob(api, churns)).toMatchObject({ status: 'done', rows: 1 });
    expect(await downloadCsv(api, churns)).toBe(
      csvOfList(
        await list(ACCOUNT_ACTIVITIES, `type=churn&churn_reason=${encodeURIComponent('Too expensive, "really"')}`),
        columns,
      ),
    );
    const bad = await api.post(`${ACCOUNT_ACTIVITIES}export/`, { type: 'upsell' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual((await api.get(`${ACCOUNT_ACTIVITIES}?type=upsell`)).body);

    const other = await newOrganization(platform());
    expect(other.organizationId).not.toBe(organizationId);
    const foreign = await other.api.get(jobPath(all));
    expect({ status: foreign.status, body: foreign.body }).toEqual({ status: 404, body: NOT_FOUND });
  });
});
