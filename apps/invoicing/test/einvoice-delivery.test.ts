/**
 * E-invoice delivery is once per invoice (docs/invoicing.md "E-invoices"): two workers delivering
 * at once, against a real Postgres and a local access point that answers slowly, POST each
 * e-invoice exactly once and leave every one delivered.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inTransaction, migrate, openOrm } from '@billing/db';
import { createLogger } from '@billing/observability';
import { changeScope } from '@billing/runtime';
import { bisViolations, createTestSchema, TestClock, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { invoicingEntities } from '../src/db/entities/index.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Buyer, Directory, Seller } from '../src/domain/directory.js';
import { httpAccessPoint } from '../src/einvoice/access-point.js';
import { deliverDueEinvoices } from '../src/use-cases/deliver-einvoices.js';
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
const received: { key: string; body: string }[] = [];
const server = http.createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  received.push({ key: String(request.headers['idempotency-key']), body: Buffer.concat(chunks).toString('utf8') });
  // Slow enough for the other worker to look for work while this delivery is under way.
  setTimeout(() => response.writeHead(202).end(), 20);
});

beforeAll(async () => {
  schema = await createTestSchema('invoicing_einvoices');
  await migrate(await open());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(async () => {
  for (const orm of orms) await orm.close(true);
  await schema.drop();
  server.close();
});

const seller: Seller = {
  party: {
    name: 'Nordlys ApS',
    address: 'Vesterbrogade 1',
    zipcode: '1620',
    city: 'København V',
    country: 'DK',
    vat_number: 'DK12345678',
    email: '',
  },
  time_zone: 'Europe/Copenhagen',
  default_payment_terms: 14,
  default_collection_method: 'invoice',
  bank_accounts: [],
  base_currency: 'DKK',
  test_clock_time: null,
  features: [],
  exchange_rates: [],
  reminder_schedule_days: [3, 10, 20],
  reminder_fee: '',
};
const buyer: Buyer = {
  account_id: randomUUID(),
  code: 'kommune',
  party: { ...seller.party, name: 'Kommune Nord', vat_number: 'DK29189420' },
  language: 'da',
  invoice_note: null,
  payment_terms: null,
  collection_method: null,
  recipients: [{ email: 'ap@kommune.example', name: 'AP' }],
  einvoicing: {
    ean_invoicing: true,
    einvoicing_identifier_schema: 'GLN',
    ean_number: '5798000416604',
    einvoicing_intermediator: null,
    legal_country: 'DK',
  },
  einvoice_field_mappings: [],
  is_getting_reminders: true,
  reseller: null,
  reseller_billing_frequency: null,
  reseller_billing_grouping: null,
};

async function issueEinvoice(orm: MikroORM, organizationId: string): Promise<string> {
  return inTransaction(orm, async (em) => {
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
    await issueInvoice(scope, invoice, buyer.recipients);
    return invoice.id;
  });
}

it('two workers at once deliver each e-invoice exactly once; none is mailed', async () => {
  const [first, second] = [await open(), await open()];
  const organizationId = randomUUID();
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push(await issueEinvoice(first!, organizationId));
  const clock = new TestClock('2026-01-15T09:00:05Z');
  const logger = createLogger('test', 'silent');
  const { port } = server.address() as AddressInfo;
  const accessPoint = httpAccessPoint({ url: `http://127.0.0.1:${port}/`, token: 't' });
  // Delivery needs no directory: what it sends is what the invoice keeps.
  const directory = {} as Directory;
  const attempts = await Promise.all(
    [first!, second!].map((orm) =>
      deliverDueEinvoices({ orm, clock, directory }, accessPoint, { kind: 'real_clock', now: clock.now() }, logger),
    ),
  );

  expect(attempts[0]! + attempts[1]!).toBe(12);
  expect(received.map((request) => request.key).sort()).toEqual([...ids].sort());
  expect(received.every((request) => bisViolations(request.body).length === 0)).toBe(true);
  const rows = await first!.em.getConnection().execute<{ einvoice_status: string; attempts: number; mails: string }[]>(
    `select i.einvoice_status, d.attempts,
              (select count(*) from mail_job m where m.invoice_id = i.id) as mails
         from invoice i join einvoice_delivery d on d.invoice_id = i.id`,
  );
  expect(rows).toHaveLength(12);
  expect(
    rows.every((row) => row.einvoice_status === 'delivered' && row.attempts === 1 && Number(row.mails) === 0),
  ).toBe(true);
});
