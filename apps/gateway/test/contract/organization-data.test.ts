/**
 * The remaining reads (gaps.md §10; api-spec "Other read endpoints", "Organization member", "ERP
 * account budget", "E-invoice field mapping"): organization members (the API users), ERP account
 * budgets and e-invoice field mappings the organization imports with the built admin command line,
 * and the available e-invoice fields. Paging, the budget_id filter, tenancy and the twins.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectStatus, type Json, NOT_FOUND, newOrganization, SCHEMA_PATTERN, usePlatform } from './helpers.js';

const platform = usePlatform();

const BUDGETS = '/api/v1/account-budgets/';
const MAPPINGS = '/api/v1/einvoice-field-mappings/';
const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TAG = (model: string) => ({ model, schema: `2026-11-22-${model}` });

async function csvFile(lines: string[]): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'import-'));
  const file = path.join(folder, 'data.csv');
  await writeFile(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

const BUDGET_HEADER =
  'budget_id,erp_account.uuid,erp_account.name,erp_account.account_number,erp_account.vat_code,erp_account.account_type,' +
  'erp_account.totals_from,erp_account.totals_to,start_date,end_date,start_amount,calculated_amount';
const SALES_UUID = '7b7e1c2a-0e0f-4d8c-8c3e-2f9a6b1d4e57';

function expectedBudget(overrides: Json = {}, account: Json = {}): Json {
  return {
    budget_id: '2026',
    erp_account: {
      uuid: SALES_UUID,
      name: 'Sales, domestic',
      display_name: '1010 Sales, domestic',
      account_number: 1010,
      account_number_str: '1010',
      vat_code: 'U25',
      account_type: 'profit_loss',
      totals_from: null,
      totals_to: null,
      ...account,
    },
    start_date: '2026-01-01',
    end_date: '2026-12-31',
    start_amount: '120000.00',
    calculated_amount: '98765.43',
    ...overrides,
    ...TAG('account_budget'),
  };
}

describe('organization members', () => {
  it('GET /current/ describes the token as the member API USER: admin, every permission, the organization', async () => {
    const { api, apiUserId } = await newOrganization(platform(), {
      name: 'Acme Billing',
      country: 'SE',
      base_currency: 'SEK',
      time_zone: 'Europe/Stockholm',
      features: ['self_service', 'kickback'],
    });

    const response = await api.get('/api/v1/organization-members/current/');

    expectStatus(response, 200);
    expect(response.body).toEqual({
      uuid: apiUserId,
      name: 'API USER',
      is_admin: true,
      language: 'en',
      initials: 'AU',
      color: '#4f46e5',
      organization: {
        name: 'Acme Billing',
        base_currency: 'SEK',
        features: [{ name: 'self_service' }, { name: 'kickback' }],
        country: 'SE',
        time_zone: 'Europe/Stockholm',
        status: 'active',
        trial_expiry: null,
        uses_internal_billing: false,
        onboarding_flow: null,
        inbound_receipt_email: null,
        inbound_invoice_email: null,
        fenerum_support_has_access: false,
        erp_system_name: null,
        erp_debtor_name: null,
        type_of_served_customers: 'B2B',
      },
      user: { id: apiUserId, email: '', first_name: 'API', last_name: 'USER', is_staff: false },
      permissions: ['billing_read', 'billing_write'],
      is_impersonated: false,
      impersonator: null,
      ...TAG('organization_member'),
    });
    const twin = await api.get('/api/v1/organization_members/current/');
    expect(twin.body).toEqual(response.body);
  });

  it('GET /available/ pages through the API users with an enabled token, oldest first; never another organization', async () => {
    const organization = await newOrganization(platform());
    platform().clock.advanceMs(1_000);
    const second = await platform().createToken(organization.organizationId);
    platform().clock.advanceMs(1_000);
    const third = await platform().createToken(organization.organizationId);
    platform().clock.advanceMs(1_000);
    const disabled = await platform().createToken(organization.organizationId);
    await platform().disableToken(disabled.apiUserId);
    await newOrganization(platform());

    const first = await organization.api.get('/api/v1/organization-members/available/?page_size=2');
    const last = await organization.api.get('/api/v1/organization_members/available/?page_size=2&page=2');

    expectStatus(first, 200);
    expect(first.body.count).toBe(3);
    expect(first.body.results.map((member: Json) => member.uuid)).toEqual([organization.apiUserId, second.apiUserId]);
    expect(first.body.next).toBe(`${platform().baseUrl}/api/v1/organization-members/available/?page=2&page_size=2`);
    expect(last.body.results.map((member: Json) => member.uuid)).toEqual([third.apiUserId]);
    expect(last.body.results[0]).toMatchObject({ name: 'API USER', is_admin: true, user: { id: third.apiUserId } });
    expect((await organization.api.get('/api/v1/organization-members/available/?page=3')).body).toEqual({
      detail: 'Invalid page.',
    });
  });
});

describe('ERP account budgets', () => {
  it('are empty until imported: a list, never 404', async () => {
    const { api } = await newOrganization(platform());

    for (const list of [BUDGETS, '/api/v1/account_budgets/']) {
      const response = await api.get(list);
      expectStatus(response, 200);
      expect(response.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    }
  });

  it('import-account-budgets (built CLI) makes them readable: list, filter, detail by the printed id, paging', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const file = await csvFile([
      BUDGET_HEADER,
      `2026,${SALES_UUID},"Sales, domestic",1010,U25,profit_loss,,,2026-01-01,2026-12-31,120000,98765.43`,
      '2026,,Totals,1999,,total_from,1000,1998,2026-01-01,2026-12-31,-5.5,0',
      `2027,${SALES_UUID},"Sales, domestic",1010,U25,profit_loss,,,2027-01-01,2027-12-31,130000.10,0.00`,
    ]);

    const printed = (await platform().admin('import-account-budgets', '--org', organizationId, '--file', file)) as Json;

    const budgets = printed.account_budgets as Json[];
    expect(printed).toMatchObject({ imported: 3, added: 3, updated: 0, removed: 0 });
    const ids = budgets.map((budget) => budget.id as number);
    expect(ids[1]).toBe(ids[0]! + 1);
    const totals = expectedBudget(
      { start_amount: '-5.50', calculated_amount: '0.00' },
      {
        uuid: expect.stringMatching(UUID_V5),
        name: 'Totals',
        display_name: '1999 Totals',
        account_number: 1999,
        account_number_str: '1999',
        vat_code: '',
        account_type: 'total_from',
        totals_from: 1000,
        totals_to: 1998,
      },
    );
    const next2027 = expectedBudget({
      budget_id: '2027',
      start_date: '2027-01-01',
      end_date: '2027-12-31',
      start_amount: '130000.10',
      calculated_amount: '0.00',
    });

    const list = await api.get(BUDGETS);
    expectStatus(list, 200);
    expect(list.body).toEqual({ count: 3, next: null, previous: null, results: [expectedBudget(), totals, next2027] });

    const filtered = await api.get(`${BUDGETS}?budget_id=2027`);
    expect(filtered.body).toEqual({ count: 1, next: null, previous: null, results: [next2027] });
    expect((await api.get(`${BUDGETS}?budget_id=2025`)).body.count).toBe(0);

    const paged = await api.get(`${BUDGETS}?page_size=1&page=2`);
    expect(paged.body).toEqual({
      count: 3,
      next: `${platform().baseUrl}${BUDGETS}?page=3&page_size=1`,
      previous: `${platform().baseUrl}${BUDGETS}?page_size=1`,
      results: [totals],
    });

    const detail = await api.get(`${BUDGETS}${ids[1]}/`);
    expectStatus(detail, 200);
    expect(detail.body).toEqual(totals);
    expect((await api.get(`/api/v1/account_budgets/${ids[0]}/`)).body).toEqual(expectedBudget());
  });

  it('an import again keeps the ids of the rows it repeats, adds new ones and removes the rest', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const row2026 = `2026,${SALES_UUID},"Sales, domestic",1010,U25,profit_loss,,,2026-01-01,2026-12-31,120000,98765.43`;
    const first = (await platform().admin(
      'import-account-budgets',
      '--org',
      organizationId,
      '--file',
      await csvFile([BUDGET_HEADER, row2026, '2026,,Rent,2010,,profit_loss,,,2026-01-01,2026-12-31,1,1']),
    )) as { account_budgets: Json[] };
    const [salesId, rentId] = first.account_budgets.map((budget) => budget.id);

    const again = (await platform().admin(
      'import-account-budgets',
      '--org',
      organizationId,
      '--file',
      await csvFile([
        BUDGET_HEADER,
        `2026,${SALES_UUID},"Sales, domestic",1010,U25,profit_loss,,,2026-01-01,2026-12-31,150000,100`,
        '2026,,Salaries,3010,,profit_loss,,,2026-01-01,2026-12-31,2,2',
      ]),
    )) as Json;

    expect(again).toMatchObject({ imported: 2, added: 1, updated: 1, removed: 1 });
    expect((again.account_budgets as Json[])[0]!.id).toBe(salesId);
    expect((await api.get(`${BUDGETS}${salesId}/`)).body).toEqual(
      expectedBudget({ start_amount: '150000.00', calculated_amount: '100.00' }),
    );
    expectStatus(await api.get(`${BUDGETS}${rentId}/`), 404);
    expect((await api.get(BUDGETS)).body.count).toBe(2);
  });

  it('refuses a file with invalid rows, naming line and column, and imports nothing', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const file = await csvFile([
      BUDGET_HEADER,
      `2026,${SALES_UUID},Sales,1010,U25,profit_loss,,,2026-01-01,2026-12-31,120000,1`,
      `2026,${SALES_UUID},Sales,1010,U25,asset,,,2026-01-01,2026-13-01,12.345,1`,
    ]);

    await expect(platform().admin('import-account-budgets', '--org', organizationId, '--file', file)).rejects.toThrow(
      JSON.stringify({
        error: 'The file has invalid rows; nothing was imported.',
        reason: 'VALIDATION_FAILED',
        fields: [
          { field: 'line 3: erp_account.account_type', description: '"asset" is not a valid choice.' },
          {
            field: 'line 3: end_date',
            description: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
          },
          {
            field: 'line 3: start_amount',
            description: 'Enter a number with at most 18 digits before the decimal point and 2 after it.',
          },
        ],
      }),
    );
    expect((await api.get(BUDGETS)).body.count).toBe(0);
  });

  it("another organization's budget is 404, and so is an id that is no positive integer", async () => {
    const owner = await newOrganization(platform());
    const other = await newOrganization(platform());
    const printed = (await platform().admin(
      'import-account-budgets',
      '--org',
      owner.organizationId,
      '--file',
      await csvFile([BUDGET_HEADER, '2026,,Sales,1010,,profit_loss,,,2026-01-01,2026-12-31,1,1']),
    )) as { account_budgets: Json[] };
    const id = printed.account_budgets[0]!.id;

    expectStatus(await owner.api.get(`${BUDGETS}${id}/`), 200);
    for (const path of [`${BUDGETS}${id}/`, `${BUDGETS}0/`, `${BUDGETS}abc/`, `${BUDGETS}99999999999/`]) {
      const response = await other.api.get(path);
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    expect((await other.api.get(BUDGETS)).body.count).toBe(0);
  });
});

describe('e-invoice field mappings', () => {
  const MAPPING_HEADER = 'format,target_field,source_type,source_builtin_field,source_custom_field';
  const CUSTOM = '3f1d2c4b-5a69-4c2b-9a8e-0d1f6c1e5a55';

  it('are empty until imported; the import (built CLI) makes them the list, by target field', async () => {
    const { api, organizationId } = await newOrganization(platform());
    expect((await api.get(MAPPINGS)).body).toEqual({ count: 0, next: null, previous: null, results: [] });

    await platform().admin(
      'import-einvoice-field-mappings',
      '--org',
      organizationId,
      '--file',
      await csvFile([
        MAPPING_HEADER,
        'peppol_bis,order_reference,builtin,po_number,',
        `peppol_bis,buyer_reference,custom_field,,${CUSTOM}`,
      ]),
    );
    const list = await api.get(MAPPINGS);

    expectStatus(list, 200);
    const mapping = (target: string, fields: Json) => ({
      uuid: expect.stringMatching(UUID_V5),
      format: 'peppol_bis',
      target_field: target,
      ...fields,
      ...TAG('einvoice_field_mapping'),
    });
    expect(list.body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        mapping('buyer_reference', {
          source_type: 'custom_field',
          source_builtin_field: '',
          source_custom_field: CUSTOM,
        }),
        mapping('order_reference', {
          source_type: 'builtin',
          source_builtin_field: 'po_number',
          source_custom_field: null,
        }),
      ],
    });
    expect((await api.get('/api/v1/einvoice_field_mappings/')).body).toEqual(list.body);

    // Imported again, a field keeps its uuid; a field not in the file goes.
    await platform().admin(
      'import-einvoice-field-mappings',
      '--org',
      organizationId,
      '--file',
      await csvFile([MAPPING_HEADER, 'peppol_bis,order_reference,builtin,case_number,']),
    );
    const again = await api.get(MAPPINGS);
    expect(again.body.results).toEqual([{ ...list.body.results[1], source_builtin_field: 'case_number' }]);

    const other = await newOrganization(platform());
    expect((await other.api.get(MAPPINGS)).body.count).toBe(0);
  });

  it('GET /available-fields/ lists every target field as the mapping filling it by default, paged', async () => {
    const { api } = await newOrganization(platform());
    const field = (target: string, source: string) => ({
      uuid: null,
      format: 'peppol_bis',
      target_field: target,
      source_type: 'builtin',
      source_builtin_field: source,
      source_custom_field: null,
      ...TAG('einvoice_field_mapping'),
    });

    const response = await api.get(`${MAPPINGS}available-fields/`);

    expectStatus(response, 200);
    expect(response.body).toEqual({
      count: 7,
      next: null,
      previous: null,
      results: [
        field('buyer_reference', 'reference_person'),
        field('project_reference', 'case_number'),
        field('contract_reference', ''),
        field('order_reference', 'po_number'),
        field('accounting_cost', 'account_code'),
        field('invoice_note', 'invoice_supplement'),
        field('buyer_contact_name', 'account_reference_person'),
      ],
    });
    const page = await api.get('/api/v1/einvoice_field_mappings/available_fields/?page_size=5&page=2');
    expect(page.body.results).toEqual(response.body.results.slice(5));
    expect(response.body.results[0].schema).toMatch(SCHEMA_PATTERN);
  });
});

describe('authentication', () => {
  it('every one of these reads needs a token', async () => {
    for (const path of [
      '/api/v1/organization-members/current/',
      '/api/v1/organization-members/available/',
      BUDGETS,
      `${BUDGETS}1/`,
      MAPPINGS,
      `${MAPPINGS}available-fields/`,
    ]) {
      const response = await fetch(`${platform().baseUrl}${path}`, { headers: { 'X-Client-System': 'tests' } });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'Invalid token.' });
    }
  });
});
