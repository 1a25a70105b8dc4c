/**
 * The invoice export's query (db/invoice-csv-query.ts) against the list's own path, on a real
 * PostgreSQL: every cell the query writes equals what the gateway's CSV of the list item has
 * (invoiceView → invoiceMessage → presentInvoiceListItem → csvCells), for the shapes the contract
 * tests' issued invoices do not reach: several VAT parts, none, ISK, negative and truncated
 * amounts, sub-millisecond instants, kickback on and off, an unknown account, a bank account.
 */
import { randomUUID } from 'node:crypto';
import { withLiterals } from '@billing/exports';
import { presentInvoiceListItem } from '@billing/rest-representation';
import type { TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InvoiceEntity } from '../src/db/entities/invoice.entity.js';
import { invoiceCsvQuery } from '../src/db/invoice-csv-query.js';
import { invoiceListSelection } from '../src/db/invoice-queries.js';
import { invoiceView } from '../src/db/invoice-view.js';
import { invoiceMessage } from '../src/grpc/invoice-mapper.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

/** The list item's CSV columns (the gateway's InvoiceListItemSchema, in order). */
const COLUMNS = [
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

/** csvCells of the gateway (routes/exports/export-csv.ts). */
function csvCells(item: object): string[] {
  return COLUMNS.map((column) => {
    let value: unknown = item;
    for (const key of column.split('.')) {
      value = value === null || value === undefined ? undefined : (value as Record<string, unknown>)[key];
    }
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return JSON.stringify(value);
  });
}

let database: TestSchema;
let orm: MikroORM;
let pool: pg.Pool;
const organizationId = randomUUID();
const known = randomUUID();
const unknown = randomUUID();

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_csv_query'));
  pool = new pg.Pool({ connectionString: database.databaseUrl, options: `-c search_path=${database.schema}` });
  const party = JSON.stringify({
    name: 'Acme',
    address: '',
    zipcode: '',
    city: '',
    country: 'DK',
    vat_number: '',
    email: '',
  });
  const rows: [string, string, string, string, string, string, string, string | null, string][] = [
    // account, currency, total, subtotal, vat, balance, vat_breakdown, kickback_status, created_at
    [
      known,
      'DKK',
      '125',
      '100',
      '25',
      '125',
      '[{"rate":"25.00","base":"100.00","vat":"25.00"}]',
      'paid',
      '2026-01-15 09:00:00.123456+00',
    ],
    [
      known,
      'EUR',
      '-10.009',
      '-8.007',
      '-2.002',
      '0',
      '[{"rate":"25.00","base":"80.00","vat":"20.00"},{"rate":"0.00","base":"20.00","vat":"0.00"}]',
      null,
      '2026-01-15 09:00:00+00',
    ],
    [unknown, 'ISK', '1500.75', '1200.6', '300.15', '99.999', '[]', 'pending', '2026-01-15 09:00:00.9999+00'],
    [
      known,
      'SEK',
      '0.1',
      '0.08',
      '0.02',
      '-0.001',
      '[{"rate":"6.00","base":"1.00","vat":"0.06"},{"rate":"12.00","base":"1.00","vat":"0.12"},{"rate":"25.00","base":"1.00","vat":"0.25"}]',
      null,
      '1999-12-31 23:59:59.5+00',
    ],
  ];
  for (const [
    index,
    [account, currency, total, subtotal, vat, balance, breakdown, kickback, created],
  ] of rows.entries()) {
    await pool.query(
      `insert into invoice (id, organization_id, account_id, account_code, invoice_number, external_invoice_number, date,
         due_date, currency, status, kickback_status, collection_method, payment_terms, subtotal, vat, total, balance,
         is_credit_note, credit_note_for, reverse_charge, vat_note, vat_breakdown, seller, buyer, language, po_number,
         imported, import_source, issued_at, version, created_at, updated_at, bank_account)
       values ($1, $2, $3, 'acme, "the" code', $4, $5, '2026-01-15', '2026-01-29', $6, 'open', $7, 'invoice', 14, $8, $9,
         $10, $11, $12, $13, $12, $14, $15, $16, $16, 'da', '', $12, $17, now(), 1, $18, $18, $19)`,
      [
        randomUUID(),
        organizationId,
        account,
        index + 1,
        index === 1 ? 'EXT-1\nline two' : '',
        currency,
        kickback,
        subtotal,
        vat,
        total,
        balance,
        index % 2 === 1,
        index === 1 ? randomUUID() : null,
        index === 3 ? 'Reverse charge: "Art. 196"' : '',
        breakdown,
        party,
        index === 2 ? 'import' : '',
        created,
        index === 0
          ? JSON.stringify({ id: 7, currency: 'DKK', iban: 'DK50', bic: '', reg_number: '', account_number: '' })
          : null,
      ],
    );
  }
});

afterAll(async () => {
  await pool?.end();
  await orm?.close(true);
  await database?.drop();
});

it.each([true, false])('writes every cell as the list’s CSV has it (kickback %s)', async (kickbackEnabled) => {
  const em = orm.em.fork();
  const accounts = [{ uuid: known, code: 'acme', display_name: 'Acme, "Inc"', company_name: null, type: 'person' }];
  const query = invoiceCsvQuery({
    selection: await invoiceListSelection(em, organizationId, {}),
    ordering: { column: 'invoice_number', direction: 'asc' },
    accounts,
    kickbackEnabled,
  });
  const { rows } = await pool.query<unknown[]>({ text: withLiterals(query), rowMode: 'array' });
  const written = rows.map((row) => row.map((cell) => (cell === null ? '' : String(cell))));

  const stored = await em.find(
    InvoiceEntity,
    { organization_id: organizationId },
    { orderBy: { invoice_number: 'asc' } },
  );
  const summaries = new Map(accounts.map((account) => [account.uuid, { ...account, company_name: undefined }]));
  const expected = stored.map((row) =>
    csvCells(presentInvoiceListItem(invoiceMessage(invoiceView(row, [])), { accounts: summaries, kickbackEnabled })),
  );
  expect(written).toEqual(expected);
  // What the shapes are, so the comparison above is not of empty cells.
  expect(written.map((cells) => cells[COLUMNS.indexOf('vat_breakdown')]!.split('"rate"').length - 1)).toEqual([
    1, 2, 0, 3,
  ]);
  expect(written.map((cells) => cells[COLUMNS.indexOf('total')])).toEqual(['125', '-10', '1500', '0.1']);
  expect(written.map((cells) => cells[COLUMNS.indexOf('created_date')])).toEqual([
    '2026-01-15T09:00:00.123Z',
    '2026-01-15T09:00:00.000Z',
    '2026-01-15T09:00:00.999Z',
    '1999-12-31T23:59:59.500Z',
  ]);
});
