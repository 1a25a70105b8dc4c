/**
 * The two raw-SQL invoice baselines write the same rows: bench:billing-run's (a statement per batch,
 * invoice-batch-baseline.ts) is compared, row by row, with the per-message one that bench:invoices
 * uses (invoice-baseline.ts) on the same charge.created messages: two organizations, one to three
 * lines per charge, numbers per organization in message order, totals with 25 % VAT rounded half
 * up, and a redelivered batch that writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { migrate, openOrm } from '@billing/db';
import { encodeEnvelope } from '@billing/events';
import { invoicingEntities, invoicingMigrations } from '@billing/invoicing';
import { subscriptionEventsV1 } from '@billing/proto';
import { testDatabaseUrl } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineInvoiceAll } from '../src/invoice-baseline.js';
import { baselineInvoiceBatches } from '../src/invoice-batch-baseline.js';

const HOOK_TIMEOUT_MS = 60_000;
const ORG_A = '0a000000-0000-4000-8000-000000000001';
const ORG_B = '0b000000-0000-4000-8000-000000000002';

/** A charge.created envelope of `organization` whose lines have the `amounts` given. */
function chargeCreated(organization: string, account: string, amounts: string[]): Buffer {
  const charge = {
    uuid: randomUUID(),
    subscription: randomUUID(),
    account,
    kind: 'renewal',
    currency: 'DKK',
    amount: amounts.reduce((sum, amount) => sum + Number(amount), 0).toFixed(2),
    due_at: new Date('2026-12-01T09:00:00Z'),
    period_start: new Date('2026-12-01T09:00:00Z'),
    lines: amounts.map((amount, index) => ({
      kind: 'renewal',
      terms: randomUUID(),
      plan: randomUUID(),
      date_from: '2026-12-01',
      date_to: '2026-12-31',
      days: 31,
      period_days: 31,
      period_date_from: '2026-12-01',
      period_date_to: '2026-12-31',
      quantity: index + 1,
      unit_price: amount,
      price_source: 'terms',
      tiers_applied: [],
      discounted_unit_price: amount,
      amount,
      plan_name: `Plan ${index + 1}`,
      plan_code: `plan-${index + 1}`,
      terms_code: 'monthly',
      collect_vat: true,
      vat_type: 'services',
    })),
    group_on_invoice: false,
    po_number: '',
    collection_method: 'invoice',
    reference_person: '',
    account_reference_person: '',
    case_number: '',
    custom_fields: {},
    credit_all_invoices: false,
  };
  return Buffer.from(
    encodeEnvelope({
      event_id: randomUUID(),
      event_type: 'charge.created',
      schema_version: 1,
      organization_id: organization,
      occurred_at: new Date('2026-12-01T09:00:00Z'),
      request_id: '',
      aggregate_type: 'charge',
      aggregate_id: charge.uuid,
      payload_type: 'billing.events.v1.ChargeCreated',
      payload: Buffer.from(subscriptionEventsV1.ChargeCreated.encode({ charge }).finish()),
    }),
  );
}

const ACCOUNT_1 = '11111111-0000-4000-8000-000000000001';
const ACCOUNT_2 = '22222222-0000-4000-8000-000000000002';
const MESSAGES = [
  chargeCreated(ORG_A, ACCOUNT_1, ['99.99']),
  chargeCreated(ORG_B, ACCOUNT_2, ['10.01', '0.03']),
  chargeCreated(ORG_A, ACCOUNT_2, ['100.00', '20.02', '0.10']),
  chargeCreated(ORG_A, ACCOUNT_1, ['0.02']),
  chargeCreated(ORG_B, ACCOUNT_1, ['1234.56']),
];

interface Schema {
  name: string;
  pool: pg.Pool;
}
const schemas: Schema[] = [];
const closers: (() => Promise<unknown>)[] = [];

async function invoicingSchema(): Promise<Schema> {
  const name = `baselines_${randomUUID().slice(0, 8)}_invoicing`;
  const orm = await openOrm({
    clientUrl: testDatabaseUrl(),
    schema: name,
    entities: invoicingEntities,
    migrations: invoicingMigrations,
  });
  await migrate(orm);
  await orm.close(true);
  const pool = new pg.Pool({ connectionString: testDatabaseUrl(), options: `-c search_path=${name}`, max: 1 });
  closers.push(async () => {
    await pool.query(`drop schema if exists "${name}" cascade`);
    await pool.end();
  });
  return { name, pool };
}

const INVOICES = `select organization_id, invoice_number, account_code, date, due_date, currency, status,
    subtotal::text, vat::text, total::text, balance::text, vat_breakdown, seller, buyer, language
  from invoice order by organization_id, invoice_number`;
const LINES = `select i.organization_id, i.invoice_number, l.sort_weight, l.description, l.sku, l.price::text,
    l.quantity::text, l.subtotal::text, l.vat::text, l.total::text, l.pricing, l.charge_id
  from invoice_line l join invoice i on i.id = l.invoice_id order by 1, 2, 3`;
const COUNTS = `select (select count(*) from invoiced_charge)::int as charges, (select count(*) from mail_job)::int as mails,
    (select count(*) from audit_log where action = 'invoice.issue')::int as audits,
    (select count(*) from outbox where subject = 'invoicing.invoice.issued')::int as events,
    (select count(*) from inbox)::int as inbox,
    (select jsonb_object_agg(organization_id, last_number) from invoice_number_counter) as counters`;

describe('the invoice baselines', () => {
  let perMessage: Schema;
  let perBatch: Schema;
  beforeAll(async () => {
    perMessage = await invoicingSchema();
    perBatch = await invoicingSchema();
    schemas.push(perMessage, perBatch);
    const work = { payloadBytes: 300 };
    expect(await baselineInvoiceAll(perMessage.pool, MESSAGES, work, 2)).toBe(5);
    // Batches of 3 then 2: organization A's numbers span both.
    expect(await baselineInvoiceBatches(perBatch.pool, MESSAGES, work, 3)).toBe(5);
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    for (const close of closers) await close();
  }, HOOK_TIMEOUT_MS);

  it('number each organization in message order and compute the same totals', async () => {
    const { rows } = await perBatch.pool.query(
      'select organization_id, invoice_number::int, subtotal::text, vat::text, total::text from invoice order by organization_id, invoice_number',
    );
    expect(rows).toEqual([
      { organization_id: ORG_A, invoice_number: 1, subtotal: '99.990000', vat: '25.000000', total: '124.990000' },
      { organization_id: ORG_A, invoice_number: 2, subtotal: '120.120000', vat: '30.030000', total: '150.150000' },
      { organization_id: ORG_A, invoice_number: 3, subtotal: '0.020000', vat: '0.010000', total: '0.030000' },
      { organization_id: ORG_B, invoice_number: 1, subtotal: '10.040000', vat: '2.510000', total: '12.550000' },
      { organization_id: ORG_B, invoice_number: 2, subtotal: '1234.560000', vat: '308.640000', total: '1543.200000' },
    ]);
  });

  it('write the same invoices, lines and accompanying rows', async () => {
    for (const sql of [INVOICES, LINES, COUNTS]) {
      const [expected, actual] = await Promise.all([perMessage.pool.query(sql), perBatch.pool.query(sql)]);
      expect(actual.rows).toEqual(expected.rows);
    }
    const { rows } = await perBatch.pool.query(COUNTS);
    expect(rows[0]).toEqual({
      charges: 5,
      mails: 5,
      audits: 5,
      events: 5,
      inbox: 5,
      counters: { [ORG_A]: 3, [ORG_B]: 2 },
    });
  });

  it('write nothing for messages they have seen', async () => {
    expect(await baselineInvoiceBatches(perBatch.pool, MESSAGES, { payloadBytes: 300 }, 5)).toBe(0);
    const { rows } = await perBatch.pool.query('select count(*)::int as n from invoice');
    expect(rows[0]).toEqual({ n: 5 });
  });
});
