/**
 * gaps.md §3: optional fields the spec types as plain strings (not "string or null") take `null` on
 * writes and store it as "" (the hosted product's Python client sends `"legal_vat_number": null`).
 * Fields typed "string or null" keep storing null. Every such field of every resource, on create,
 * PUT and PATCH, with the whole response body.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  ACCOUNTS,
  accountInput,
  accountPath,
  createAccount,
  createPlan,
  expectedAccount,
  expectedPlan,
  expectStatus,
  ISO_Z_PATTERN,
  type Json,
  newOrganization,
  PLANS,
  planInput,
  planPath,
  SCHEMA_PATTERN,
  UUID_PATTERN,
  uniqueCode,
  usePlatform,
} from './helpers.js';
import { DRAFT_LINES, draftLinePath } from './invoices-helpers.js';
import {
  createSubscription,
  expectedSubscription,
  SUBSCRIPTIONS,
  subscriptionFixture,
  subscriptionInput,
  subscriptionPath,
} from './subscriptions-helpers.js';

const platform = usePlatform();
const NOW = '2026-01-15T09:00:00.000Z';

/** Each account field and a non-blank value it can hold before null blanks it. */
const ACCOUNT_FIELDS: Array<[string, string]> = [
  ['legal_vat_number', 'DK12345678'],
  ['billing_address', 'Nørregade 7'],
  ['billing_zipcode', '8000'],
  ['billing_city', 'Aarhus C'],
  ['billing_country', 'DE'],
  ['einvoicing_identifier_schema', 'GLN'],
];

const SUBSCRIPTION_FIELDS = ['po_number', 'reference_person', 'account_reference_person', 'case_number'];
const DRAFT_LINE_FIELDS = SUBSCRIPTION_FIELDS;

describe('accounts', () => {
  it.each(ACCOUNT_FIELDS)('create with %s null stores ""', async (field) => {
    const { api } = await newOrganization(platform());
    const code = uniqueCode();

    const response = await api.post(ACCOUNTS, accountInput(code, { [field]: null }));

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedAccount(accountInput(code, { [field]: '' })));
    expect((await api.get(accountPath(code))).body).toEqual(response.body);
  });

  it('create with every such field null at once (what the Python client sends)', async () => {
    const { api } = await newOrganization(platform());
    const code = uniqueCode();
    const nulls = Object.fromEntries(
      [...ACCOUNT_FIELDS.map(([field]) => field), 'reseller_code'].map((f) => [f, null]),
    );

    const response = await api.post(ACCOUNTS, accountInput(code, { ...nulls, company_name: null, erp_id: null }));

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedAccount(accountInput(code)));
    expect(response.body.company_name).toBeNull();
    expect(response.body.erp_id).toBeNull();
  });

  it.each(ACCOUNT_FIELDS)('PUT with %s null blanks a stored value', async (field, value) => {
    const { api } = await newOrganization(platform());
    const code = uniqueCode();
    await createAccount(api, code, { [field]: value });

    const response = await api.put(accountPath(code), accountInput(code, { [field]: null }));

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedAccount(accountInput(code, { [field]: '' })));
    expect((await api.get(accountPath(code))).body).toEqual(response.body);
  });

  it.each(ACCOUNT_FIELDS)('PATCH with %s null blanks a stored value', async (field, value) => {
    const { api } = await newOrganization(platform());
    const code = uniqueCode();
    await createAccount(api, code, { [field]: value, company_name: 'Kept ApS' });

    const response = await api.patch(accountPath(code), { [field]: null });

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedAccount(accountInput(code, { [field]: '', company_name: 'Kept ApS' })));
    expect((await api.get(accountPath(code))).body).toEqual(response.body);
  });

  it('reseller_code null on create, PUT and PATCH: "" (no reseller)', async () => {
    const { api } = await newOrganization(platform());
    const reseller = await createAccount(api, 'the-reseller');

    const created = await api.post(ACCOUNTS, accountInput('resold-1', { reseller_code: null }));
    expectStatus(created, 201);
    expect(created.body).toEqual(expectedAccount(accountInput('resold-1')));

    await createAccount(api, 'resold-2', { reseller_code: 'the-reseller' });
    const put = await api.put(accountPath('resold-2'), accountInput('resold-2', { reseller_code: null }));
    expectStatus(put, 200);
    expect(put.body).toEqual(expectedAccount(accountInput('resold-2')));

    await createAccount(api, 'resold-3', { reseller: reseller.uuid });
    const patch = await api.patch(accountPath('resold-3'), { reseller_code: null });
    expectStatus(patch, 200);
    expect(patch.body).toEqual(expectedAccount(accountInput('resold-3')));
    expect((await api.get(accountPath('resold-3'))).body).toEqual(patch.body);
  });

  it('fields the spec types "string or null" still store null', async () => {
    const { api } = await newOrganization(platform());
    const code = uniqueCode();
    await createAccount(api, code, { company_name: 'A/S', ean_number: '5790000000000', invoice_note: 'n' });

    const response = await api.patch(accountPath(code), { company_name: null, ean_number: null, invoice_note: null });

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedAccount(accountInput(code)));
    expect([response.body.company_name, response.body.ean_number, response.body.invoice_note]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('fields without a blank value still refuse null', async () => {
    const { api } = await newOrganization(platform());
    const code = uniqueCode();
    const created = await createAccount(api, code);

    const response = await api.patch(accountPath(code), { language: null, legal_city: null });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      language: ['This field may not be null.'],
      legal_city: ['This field may not be null.'],
    });
    expect((await api.get(accountPath(code))).body).toEqual(created);
  });
});

describe('subscriptions', () => {
  const nulls = Object.fromEntries(SUBSCRIPTION_FIELDS.map((field) => [field, null]));
  const values = Object.fromEntries(SUBSCRIPTION_FIELDS.map((field) => [field, `${field}-1`]));
  const blanks = Object.fromEntries(SUBSCRIPTION_FIELDS.map((field) => [field, '']));

  it.each(SUBSCRIPTION_FIELDS)('create with %s null stores ""', async (field) => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, { [field]: null }));

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedSubscription(fixture, NOW));
    expect((await api.get(subscriptionPath(response.body.uuid))).body).toEqual(response.body);
  });

  it.each(['put', 'patch'] as const)('%s with each of them null blanks the stored values', async (method) => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const created = await createSubscription(api, fixture, values);
    expect(created).toEqual(expectedSubscription(fixture, NOW, values));

    const response = await api[method](subscriptionPath(created.uuid), nulls);

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedSubscription(fixture, NOW, { ...blanks, uuid: created.uuid }));
    expect((await api.get(subscriptionPath(created.uuid))).body).toEqual(response.body);
  });

  it('invoice_supplement and custom_churn_reason ("string or null") still store null', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const created = await createSubscription(api, fixture, { invoice_supplement: 'x', custom_churn_reason: 'y' });

    const response = await api.patch(subscriptionPath(created.uuid), {
      invoice_supplement: null,
      custom_churn_reason: null,
    });

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedSubscription(fixture, NOW, { uuid: created.uuid }));
  });
});

describe('draft invoice lines', () => {
  const line = (account: string, fields: Json = {}): Json => ({
    account,
    description: 'Setup fee',
    vat_type: 'services',
    currency: 'DKK',
    ...fields,
  });
  const expectedLine = (account: { code: string; uuid: string }, fields: Json = {}): Json => ({
    uuid: expect.stringMatching(UUID_PATTERN),
    account: account.code,
    account_uuid: account.uuid,
    description: 'Setup fee',
    vat_type: 'services',
    collect_vat: true,
    date_from: null,
    date_to: null,
    price: '0.00',
    quantity: '1.00',
    discount_percentage: null,
    discount_fixed_per_quantity: null,
    discount_fixed_total: null,
    currency: 'DKK',
    include_in_next_renewal_invoice: false,
    revenue_group: null,
    created_date: expect.stringMatching(ISO_Z_PATTERN),
    last_modified_date: expect.stringMatching(ISO_Z_PATTERN),
    reference_person: '',
    account_reference_person: '',
    po_number: '',
    case_number: '',
    invoice_supplement: null,
    custom_fields: {},
    model: 'draft_invoice_line',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...fields,
  });
  const nulls = Object.fromEntries(DRAFT_LINE_FIELDS.map((field) => [field, null]));
  const values = Object.fromEntries(DRAFT_LINE_FIELDS.map((field) => [field, `${field}-1`]));

  async function createLine(api: ApiClient, body: Json) {
    const response = await api.post(DRAFT_LINES, body);
    expectStatus(response, 201);
    return response.body;
  }

  it.each(DRAFT_LINE_FIELDS)('create with %s null stores ""', async (field) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);

    const response = await api.post(DRAFT_LINES, line(account.code, { [field]: null }));

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedLine(account));
    expect((await api.get(draftLinePath(response.body.uuid))).body).toEqual(response.body);
  });

  it.each(['put', 'patch'] as const)('%s with each of them null blanks the stored values', async (method) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const created = await createLine(api, line(account.code, values));
    expect(created).toEqual(expectedLine(account, values));

    const body = method === 'put' ? line(account.code, nulls) : nulls;
    const response = await api[method](draftLinePath(created.uuid), body);

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedLine(account, { uuid: created.uuid }));
    expect((await api.get(draftLinePath(created.uuid))).body).toEqual(response.body);
  });

  it('invoice_supplement and revenue_group ("string or null") still store null', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const created = await createLine(api, line(account.code, { invoice_supplement: 'x', revenue_group: 'y' }));

    const response = await api.patch(draftLinePath(created.uuid), { invoice_supplement: null, revenue_group: null });

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedLine(account, { uuid: created.uuid }));
  });
});

describe('plans', () => {
  it('create, PUT and PATCH with description null store ""', async () => {
    const { api } = await newOrganization(platform());

    const input = planInput(uniqueCode('plan'), { description: null });
    const created = await api.post(PLANS, input);
    expectStatus(created, 201);
    expect(created.body).toEqual(expectedPlan({ ...input, description: '' }));

    const described = await createPlan(api, uniqueCode('plan'), { description: 'Our best plan' });
    const putInput = planInput(described.code, { description: null });
    const put = await api.put(planPath(described.uuid), putInput);
    expectStatus(put, 200);
    expect(put.body).toEqual(expectedPlan({ ...putInput, description: '' }, { uuid: described.uuid }));

    await api.patch(planPath(described.uuid), { description: 'Again' });
    const patch = await api.patch(planPath(described.uuid), { description: null });
    expectStatus(patch, 200);
    expect(patch.body).toEqual(expectedPlan({ ...putInput, description: '' }, { uuid: described.uuid }));
    expect((await api.get(planPath(described.uuid))).body).toEqual(patch.body);
  });
});
