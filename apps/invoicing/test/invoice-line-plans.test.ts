/**
 * The lines of a batch of invoices (lineRowsOf: settled card payments, invoice views) are read by
 * a lookup per invoice, with or without planner statistics, for 5 invoices as for 500: on 100,000
 * lines, a few index entries per invoice, never every line ever written, which `invoice_id in (…)`
 * read without statistics (the planner counted 0.5 % of the table per invoice). What the statement
 * read is counted with Postgres' per-transaction statistics (entriesReadBy), whatever plan it took.
 */
import { randomUUID } from 'node:crypto';
import { entriesReadInOrm, keyedUuids, type TestSchema } from '@billing/testing';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineRowsOf } from '../src/db/settle-store.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

let database: TestSchema;
let orm: MikroORM;

const organizationId = randomUUID();
const INVOICES = 50_000;

/** The uuid of the organization's n-th invoice: md5(organization, 'invoice', n), in SQL as in JS. */
const { uuidOf, uuidOfRow } = keyedUuids<'invoice'>(organizationId);
const invoiceOf = (n: number) => uuidOf('invoice', n);

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_line_plans'));
  const em = orm.em.fork();
  await em.execute('alter table invoice_line set (autovacuum_enabled = false)');
  // Two lines per invoice (line g of invoice g % 50,000), the second before the first by sort weight.
  await em.execute(
    `insert into invoice_line (organization_id, invoice_id, account_id, account_code, description, sku, vat_type,
       collect_vat, price, quantity, subtotal, vat_rate, vat, total, currency, sort_weight, reference_person,
       account_reference_person, po_number, case_number, custom_fields, pricing, created_at)
     select ?, ${uuidOfRow('invoice', `g % ${INVOICES}`)}, gen_random_uuid(), 'acme',
       'Line ' || g, '', 'standard', true, 100, 1, 100, 25, 25, 125, 'DKK', case when g > ${INVOICES} then 1 else 2 end,
       '', '', '', '', '{}', '{}', now()
       from generate_series(1, ${2 * INVOICES}) g`,
    [organizationId],
  );
}, 120_000);

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

describe.each([
  [5, false],
  [200, false],
  [500, false],
  [5, true],
  [200, true],
  [500, true],
])('lineRowsOf for %i invoices (planner statistics: %s)', (keys, analyzed) => {
  beforeAll(async () => {
    if (analyzed) await orm.em.fork().execute('analyze invoice_line');
  });

  it("reads each invoice's lines by its key, in sort order", async () => {
    const invoices = Array.from({ length: keys }, (_, i) => invoiceOf(i + 1));
    const { answer: lines, entries } = await entriesReadInOrm(orm, (em: EntityManager) =>
      lineRowsOf(em, [...invoices, randomUUID()]),
    );
    expect([...lines.keys()].sort()).toEqual([...invoices].sort());
    for (const [n, invoice] of invoices.entries()) {
      // Invoice n + 1 has lines n + 1 (weight 2) and n + 1 + 50,000 (weight 1).
      expect(lines.get(invoice)!.map((line) => line.description)).toEqual([
        `Line ${n + 1 + INVOICES}`,
        `Line ${n + 1}`,
      ]);
    }
    expect(entries.invoice_line).toBeGreaterThan(0);
    expect(entries.invoice_line).toBeLessThanOrEqual(10 * keys + 50);
  });
});
