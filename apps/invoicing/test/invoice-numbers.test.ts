import { randomUUID } from 'node:crypto';
import { inTransaction, migrate, openOrm } from '@billing/db';
import { changeScope } from '@billing/runtime';
import { createTestSchema, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { invoicingEntities } from '../src/db/entities/index.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Buyer, Seller } from '../src/domain/directory.js';
import { addLines, createInvoiceRow, issueInvoice } from '../src/use-cases/issue-invoices.js';

let schema: TestSchema;
const orms: MikroORM[] = [];
const open = async () => {
  const orm = await openOrm({
    clientUrl: schema.databaseUrl,
    schema: schema.schema,
    entities: invoicingEntities,
    migrations,
  });
  orms.push(orm);
  return orm;
};

beforeAll(async () => {
  schema = await createTestSchema('invoicing_numbers');
  await migrate(await open());
});
afterAll(async () => {
  for (const orm of orms) await orm.close(true);
  await schema.drop();
});

const party = { name: 'Acme', address: '', zipcode: '', city: '', country: 'DK', vat_number: '', email: '' };
const seller: Seller = {
  party,
  time_zone: 'Europe/Copenhagen',
  default_payment_terms: 14,
  default_collection_method: 'invoice',
  bank_accounts: [],
  base_currency: 'DKK',
  exchange_rates: [],
  test_clock_time: null,
  features: [],
  reminder_schedule_days: [3, 10, 20],
  reminder_fee: '',
};
const buyer: Buyer = {
  account_id: randomUUID(),
  code: 'acc-1',
  party,
  language: 'da',
  invoice_note: null,
  payment_terms: null,
  collection_method: null,
  recipients: [],
  einvoicing: {
    ean_invoicing: false,
    einvoicing_identifier_schema: '',
    ean_number: null,
    einvoicing_intermediator: null,
    legal_country: 'DK',
  },
  einvoice_field_mappings: [],
  is_getting_reminders: true,
  reseller: null,
  reseller_billing_frequency: null,
  reseller_billing_grouping: null,
};

async function issueOne(orm: MikroORM, organizationId: string): Promise<void> {
  await inTransaction(orm, async (em) => {
    const scope = changeScope(
      em,
      'invoicing',
      organizationId,
      { requestId: randomUUID() },
      new Date('2026-01-15T09:00:00Z'),
    );
    const invoice = createInvoiceRow(scope, {
      id: randomUUID(),
      buyer,
      seller,
      date: '2026-01-15',
      due_date: '2026-01-29',
      payment_terms: 14,
      currency: 'DKK',
      collection_method: 'invoice',
      po_number: '',
      group_key: null,
    });
    await addLines(scope, invoice, [
      {
        description: 'Pro',
        sku: 'pro',
        vat_type: 'services',
        collect_vat: true,
        date_from: '2026-01-15',
        date_to: '2026-02-14',
        price: '100',
        quantity: '2',
        subtotal: '200.00',
      },
    ]);
    await issueInvoice(scope, invoice, []);
  });
}

it('two workers issuing at once number 1..N in issue order, no gap, no duplicate, per organization', async () => {
  const workers = [await open(), await open()];
  const organizationId = randomUUID();
  const other = randomUUID();
  await Promise.all(
    workers.map(async (orm, index) => {
      for (let i = 0; i < 40; i++) await issueOne(orm, index === 0 && i % 4 === 0 ? other : organizationId);
    }),
  );
  const rows = await orms[0]!.em
    .getConnection()
    .execute<{ organization_id: string; invoice_number: string; issued_at: Date; total: string; vat: string }[]>(
      'select organization_id, invoice_number, issued_at, total, vat from invoice order by organization_id, invoice_number',
    );
  const numbersOf = (id: string) =>
    rows.filter((row) => row.organization_id === id).map((row) => Number(row.invoice_number));
  expect(numbersOf(organizationId)).toEqual(Array.from({ length: 70 }, (_, i) => i + 1));
  expect(numbersOf(other)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  expect(new Set(rows.map((row) => `${row.total}/${row.vat}`))).toEqual(new Set(['250.000000/50.000000']));
});
