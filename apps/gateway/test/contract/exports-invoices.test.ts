/**
 * gaps.md §9 through HTTP: the invoice list's export and the VAT export, on a Danish test-clock
 * organization (DKK, 25 % VAT). Jobs, exact CSV files, tenancy and expiry after 7 days.
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
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  uniqueCode,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();
const INVOICES = '/api/v1/invoices/';
const START = '2026-01-15T09:00:00.000Z';

const INVOICE_HEADER = [
  'uuid',
  'invoice_number',
  'external_invoice_number',
  'account.uuid',
  'account.display_name',
  'account.company_name',
  'account.code',
  'account.type',
  'account.model',
  'account.schema',
  'account_uuid',
  'account_code',
  'pay_to_bank_account',
  'date',
  'due_date',
  'currency',
  'status',
  'kickback_status',
  'collection_method',
  'imported',
  'import_source',
  'created_date',
  'last_modified_date',
  'is_credit_note',
  'credit_note_for',
  'payment_terms',
  'vat_breakdown',
  'reverse_charge',
  'vat_note',
  'einvoice_status',
  'model',
  'schema',
  'total',
  'subtotal',
  'vat',
  'balance',
];

const VAT_HEADER = [
  'invoice_number',
  'date',
  'account_code',
  'account_name',
  'country',
  'vat_number',
  'currency',
  'subtotal',
  'vat',
  'total',
  'vat_rate',
  'reverse_charge',
  'base_currency',
  'exchange_rate',
  'subtotal_base',
  'vat_base',
  'total_base',
  'is_credit_note',
  'invoices',
];

interface Fixture {
  api: ApiClient;
  dk: Json & { code: string; uuid: string };
  de: Json & { code: string; uuid: string };
  se: Json & { code: string; uuid: string };
  /** Invoice numbers by account code, lowest first. */
  numbers: Map<string, number[]>;
  schemaOf: (model: string) => string;
}

/**
 * Four invoices issued on 15 January 2026: Acme ApS (DK) for 100.00 and 200.00 DKK + 25 % VAT,
 * Beispiel GmbH (DE, VAT number: reverse charge) and Svensk AB (SE, no VAT number: Danish VAT)
 * for 100.00 each.
 */
async function invoicedOrganization(): Promise<Fixture> {
  const organization = await newOrganization(platform(), {
    test_clock_time: START,
    country: 'DK',
    base_currency: 'DKK',
    default_payment_terms: 14,
  });
  const { api } = organization;
  const dk = await createAccount(api, uniqueCode('dk'), { company_name: 'Acme ApS' });
  const de = await createAccount(api, uniqueCode('de'), {
    company_name: 'Beispiel GmbH, Berlin',
    legal_country: 'DE',
    legal_vat_number: 'DE123456789',
  });
  // A quote and a line break: the CSV quotes the field and doubles the quote.
  const se = await createAccount(api, uniqueCode('se'), { company_name: 'Svensk "Bolag"\nAB', legal_country: 'SE' });
  const plan = await createPlan(api, uniqueCode('plan'), { name: 'Pro' });
  const terms = await createPlanTerms(api, plan.uuid, { price: '100.00', currency: 'DKK' });
  for (const [account, quantity] of [
    [dk, 1],
    [dk, 2],
    [de, 1],
    [se, 1],
  ] as const) {
    const response = await api.post('/api/v1/subscriptions/', {
      account: account.code,
      terms: terms.uuid,
      quantity,
      collection_method: 'invoice',
    });
    expectStatus(response, 201);
  }
  expectStatus(await api.post('/api/v1/test-clock/advance/', { to: START }), 200);
  const list = await api.get(`${INVOICES}?ordering=invoice_number`);
  expectStatus(list, 200);
  expect(list.body.count).toBe(4);
  const numbers = new Map<string, number[]>();
  for (const invoice of list.body.results as Json[]) {
    const code = invoice.account_code as string;
    numbers.set(code, [...(numbers.get(code) ?? []), invoice.invoice_number as number]);
  }
  const schema = (list.body.results as Json[])[0]!.schema as string;
  const date = schema.slice(0, 10);
  return { api, dk, de, se, numbers, schemaOf: (model) => `${date}-${model}` };
}

describe('POST /api/v1/invoices/export/', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await invoicedOrganization();
  });

  it('exports the invoices matching the filters, with the list’s fields, amounts as the list shows them', async () => {
    const { api, dk, schemaOf } = fixture;
    const uuid = await startExport(api, `${INVOICES}export/`, { account: dk.code, ordering: 'invoice_number' });

    const job = await finishedJob(api, uuid);
    expect(job).toEqual({
      job_uuid: uuid,
      status: 'done',
      progress: 100,
      rows: 2,
      download_url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${downloadPath(uuid)}$`)),
      failure_reason: null,
      expires_date: '2026-01-22T09:00:00.000Z',
      model: 'export_job',
      schema: schemaOf('export_job'),
    });

    const list = await api.get(`${INVOICES}?account=${dk.code}&ordering=invoice_number`);
    expectStatus(list, 200);
    const records = (list.body.results as Json[]).map((invoice, index) => {
      const base = (100 * (index + 1)).toFixed(2);
      const vat = (25 * (index + 1)).toFixed(2);
      return [
        invoice.uuid as string,
        invoice.invoice_number as number,
        '',
        dk.uuid,
        'Acme ApS',
        'Acme ApS',
        dk.code,
        'company',
        'account',
        schemaOf('account'),
        dk.uuid,
        dk.code,
        null,
        '2026-01-15',
        '2026-01-29',
        'DKK',
        'open',
        null,
        'invoice',
        false,
        '',
        START,
        START,
        false,
        null,
        14,
        `[{"rate":"25.00","base":"${base}","vat":"${vat}","model":"vat_breakdown","schema":"${schemaOf('vat_breakdown')}"}]`,
        false,
        '',
        null,
        'invoice',
        schemaOf('invoice'),
        125 * (index + 1),
        100 * (index + 1),
        25 * (index + 1),
        125 * (index + 1),
      ];
    });
    expect(await downloadCsv(api, uuid)).toBe(csvFileOf(INVOICE_HEADER, records));
  });

  it('exports every invoice without filters, newest number first as the list, and only the header when nothing matches', async () => {
    const { api, numbers } = fixture;
    const all = await startExport(api, `${INVOICES}export/`);
    expect(await finishedJob(api, all)).toMatchObject({ status: 'done', progress: 100, rows: 4 });
    const lines = (await downloadCsv(api, all)).split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines.slice(1, 5).map((line) => Number(line.split(',')[1]))).toEqual(
      [...numbers.values()].flat().sort((a, b) => b - a),
    );

    const none = await startExport(api, `${INVOICES}export/`, { account: 'no-such-account' });
    expect(await finishedJob(api, none)).toMatchObject({ status: 'done', progress: 100, rows: 0 });
    expect(await downloadCsv(api, none)).toBe(csvFileOf(INVOICE_HEADER, []));
  });

  it('equals the list item for item, byte for byte: quoted names, every account, every amount', async () => {
    const { api } = fixture;
    const uuid = await startExport(api, `${INVOICES}export/`, { ordering: '-total' });
    expect(await finishedJob(api, uuid)).toMatchObject({ status: 'done', rows: 4 });
    const list = await api.get(`${INVOICES}?ordering=-total&page_size=100`);
    expectStatus(list, 200);
    const items = list.body.results as Json[];
    // The same fields (the file's columns follow the representation's schema, the JSON puts the tags last).
    expect(columnsOf(items[0]!, ['vat_breakdown']).sort()).toEqual([...INVOICE_HEADER].sort());
    const file = await downloadCsv(api, uuid);
    expect(file).toBe(
      csvFileOf(
        INVOICE_HEADER,
        items.map((item) => cellsOf(item, INVOICE_HEADER)),
      ),
    );
    expect(file).toContain('"Svensk ""Bolag""\nAB"');
    expect(file).toContain('"Beispiel GmbH, Berlin"');
  });

  it('validates the filters as the list validates its query: 400 naming the field', async () => {
    const { api } = fixture;
    for (const [name, value] of [
      ['status', 'bogus'],
      ['date__gte', '15-01-2026'],
      ['total__gt', 'many'],
      ['uuid', 'not-a-uuid'],
    ] as const) {
      const listed = await api.get(`${INVOICES}?${name}=${value}`);
      expectStatus(listed, 400);
      const exported = await api.post(`${INVOICES}export/`, { [name]: value });
      expect({ status: exported.status, body: exported.body }).toEqual({ status: 400, body: listed.body });
      expect(Object.keys(exported.body)).toEqual([name]);
    }
    const numbers = await api.post(`${INVOICES}export/`, { total__gt: 100, imported: false });
    expectStatus(numbers, 202);
    const list = await api.post(`${INVOICES}export/`, [1]);
    expectStatus(list, 400);
  });

  it('another organization’s job is 404, as is an unknown one; the file is there only once done', async () => {
    const { api } = fixture;
    const uuid = await startExport(api, `${INVOICES}export/`);
    await finishedJob(api, uuid);
    const other = await newOrganization(platform());
    for (const path of [jobPath(uuid), downloadPath(uuid)]) {
      const response = await other.api.get(path);
      expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
    }
    const unknown = await api.get(jobPath('7d1c3f0e-9b7a-4c21-8d8e-0f2b6a4c9e11'));
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: NOT_FOUND });
  });
});

describe('POST /api/v1/invoices/vat-export/', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await invoicedOrganization();
  });

  const row = (
    number: number | null,
    account: Json,
    amounts: [string, string, string],
    details: { country: string; vatNumber?: string; rate: string; reverseCharge?: boolean; invoices?: number },
  ) => [
    number,
    number === null ? null : '2026-01-15',
    account.code as string,
    account.company_name as string,
    details.country,
    details.vatNumber ?? '',
    'DKK',
    ...amounts,
    details.rate,
    details.reverseCharge ?? false,
    'DKK',
    '1',
    ...amounts,
    false,
    details.invoices ?? 1,
  ];

  it('has a row per invoice: buyer, amounts, rate, reverse charge and the base-currency amounts', async () => {
    const { api, dk, de, se, numbers } = fixture;
    const uuid = await startExport(api, `${INVOICES}vat-export/`, {});
    expect(await finishedJob(api, uuid)).toMatchObject({ status: 'done', progress: 100, rows: 4 });
    const [dk1, dk2] = numbers.get(dk.code)!;
    const expected = [
      row(dk1!, dk, ['100.00', '25.00', '125.00'], { country: 'DK', rate: '25.00' }),
      row(dk2!, dk, ['200.00', '50.00', '250.00'], { country: 'DK', rate: '25.00' }),
      row(numbers.get(de.code)![0]!, de, ['100.00', '0.00', '100.00'], {
        country: 'DE',
        vatNumber: 'DE123456789',
        rate: '0.00',
        reverseCharge: true,
      }),
      row(numbers.get(se.code)![0]!, se, ['100.00', '25.00', '125.00'], { country: 'SE', rate: '25.00' }),
    ].sort((a, b) => (a[0] as number) - (b[0] as number));
    expect(await downloadCsv(api, uuid)).toBe(csvFileOf(VAT_HEADER, expected));
  });

  it('sums per account and VAT rate, and keeps only other EU countries’ buyers with eu_countries', async () => {
    const { api, dk, de, se } = fixture;
    const periods = await api.get(`${INVOICES}available-vat-billing-periods/`);
    expectStatus(periods, 200);
    expect(periods.body).toEqual([expect.objectContaining({ display_name: 'January 2026' })]);
    const period = periods.body[0].uuid as string;

    const byAccount = await startExport(api, `${INVOICES}vat_export/`, {
      export_period: period,
      export_granularity: 'account',
    });
    expect(await finishedJob(api, byAccount)).toMatchObject({ status: 'done', progress: 100, rows: 3 });
    const accounts = [
      row(null, dk, ['300.00', '75.00', '375.00'], { country: 'DK', rate: '25.00', invoices: 2 }),
      row(null, de, ['100.00', '0.00', '100.00'], {
        country: 'DE',
        vatNumber: 'DE123456789',
        rate: '0.00',
        reverseCharge: true,
      }),
      row(null, se, ['100.00', '25.00', '125.00'], { country: 'SE', rate: '25.00' }),
    ].sort((a, b) => String(a[2]).localeCompare(String(b[2])));
    expect(await downloadCsv(api, byAccount)).toBe(csvFileOf(VAT_HEADER, accounts));

    const eu = await startExport(api, `${INVOICES}vat-export/`, {
      export_countries: 'eu_countries',
      export_granularity: 'account',
    });
    expect(await finishedJob(api, eu)).toMatchObject({ status: 'done', rows: 2 });
    expect(await downloadCsv(api, eu)).toBe(
      csvFileOf(
        VAT_HEADER,
        accounts.filter((cells) => cells[2] !== dk.code),
      ),
    );
  });

  it('refuses bad choices and a period the organization does not have, naming the field', async () => {
    const { api } = fixture;
    const cases: [Json, Json][] = [
      [{ export_countries: 'mars' }, { export_countries: ['"mars" is not a valid choice.'] }],
      [{ export_granularity: 'day' }, { export_granularity: ['"day" is not a valid choice.'] }],
      [
        { export_period: '7d1c3f0e-9b7a-4c21-8d8e-0f2b6a4c9e11' },
        { export_period: ['Invalid pk "7d1c3f0e-9b7a-4c21-8d8e-0f2b6a4c9e11" - object does not exist.'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await api.post(`${INVOICES}vat-export/`, body);
      expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: errors });
    }
  });

  it('forgets a job and its file 7 days after it was asked for, on the organization’s clock', async () => {
    const { api } = fixture;
    const uuid = await startExport(api, `${INVOICES}vat-export/`, {});
    await finishedJob(api, uuid);
    expectStatus(await api.post('/api/v1/test-clock/advance/', { to: '2026-01-22T08:59:59.000Z' }), 200);
    expectStatus(await api.get(jobPath(uuid)), 200);
    expectStatus(await api.get(downloadPath(uuid)), 200);
    expectStatus(await api.post('/api/v1/test-clock/advance/', { to: '2026-01-22T09:00:00.000Z' }), 200);
    for (const path of [jobPath(uuid), downloadPath(uuid)]) {
      const response = await api.get(path);
      expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
    }
  });
});

describe('the VAT export of a EUR invoice in a DKK organization', () => {
  it('carries the base-currency amounts at the rate in force on the invoice’s date, each rounded half-up', async () => {
    const organization = await newOrganization(platform(), {
      test_clock_time: START,
      country: 'DK',
      base_currency: 'DKK',
      default_payment_terms: 14,
    });
    const { api } = organization;
    const rate = (value: string, from: string) =>
      platform().admin(
        'set-exchange-rate',
        '--org',
        organization.organizationId,
        '--currency',
        'EUR',
        '--rate',
        value,
        '--from',
        from,
      );
    // In force on 15 January: 7.4625 (the earlier rate is replaced, the later one not yet valid).
    await rate('7.4500', '2026-01-01');
    await rate('7.4625', '2026-01-10');
    await rate('7.5000', '2026-01-16');
    const account = await createAccount(api, uniqueCode('eur'), { company_name: 'Euro ApS' });
    const plan = await createPlan(api, uniqueCode('plan'), { name: 'Pro' });
    for (const [currency, price] of [
      ['EUR', '10.00'],
      ['DKK', '100.00'],
    ] as const) {
      const terms = await createPlanTerms(api, plan.uuid, { code: uniqueCode(currency), price, currency });
      const response = await api.post('/api/v1/subscriptions/', {
        account: account.code,
        terms: terms.uuid,
        quantity: 1,
        collection_method: 'invoice',
      });
      expectStatus(response, 201);
    }
    expectStatus(await api.post('/api/v1/test-clock/advance/', { to: START }), 200);
    const list = await api.get(`${INVOICES}?ordering=invoice_number`);
    expectStatus(list, 200);
    const numberOf = (currency: string) =>
      (list.body.results as Json[]).find((invoice) => invoice.currency === currency)!.invoice_number as number;
    const buyer = [account.code as string, 'Euro ApS', 'DK', ''];

    const uuid = await startExport(api, `${INVOICES}vat-export/`, {});
    expect(await finishedJob(api, uuid)).toMatchObject({ status: 'done', progress: 100, rows: 2 });
    // EUR 10.00 + 2.50 VAT = 12.50 at 7.4625: 74.625 → 74.63, 18.65625 → 18.66, 93.28125 → 93.28
    // (each amount converted on its own: the total is not the sum of the rounded parts).
    const eur = [numberOf('EUR'), '2026-01-15', ...buyer, 'EUR', '10.00', '2.50', '12.50', '25.00', false];
    const dkk = [numberOf('DKK'), '2026-01-15', ...buyer, 'DKK', '100.00', '25.00', '125.00', '25.00', false];
    const expected = [
      [...eur, 'DKK', '7.4625', '74.63', '18.66', '93.28', false, 1],
      [...dkk, 'DKK', '1', '100.00', '25.00', '125.00', false, 1],
    ].sort((a, b) => (a[0] as number) - (b[0] as number));
    expect(await downloadCsv(api, uuid)).toBe(csvFileOf(VAT_HEADER, expected));

    const byAccount = await startExport(api, `${INVOICES}vat-export/`, { export_granularity: 'account' });
    expect(await finishedJob(api, byAccount)).toMatchObject({ status: 'done', rows: 2 });
    const summed = (cells: (string | number | boolean)[]) => [null, null, ...cells.slice(2)];
    expect(await downloadCsv(api, byAccount)).toBe(
      csvFileOf(
        VAT_HEADER,
        [expected.find((cells) => cells[6] === 'DKK')!, expected.find((cells) => cells[6] === 'EUR')!].map(summed),
      ),
    );
  });
});
