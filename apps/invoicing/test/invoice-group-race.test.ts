/**
 * Two transactions invoicing charges of the same group at once (two charge batches of a process,
 * two replicas): the second waits for the first's pending invoice of the group and adds its line
 * to it, instead of both finding none and each making one (a reseller's month split in two).
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { TestClock, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InvoiceEntity } from '../src/db/entities/invoice.entity.js';
import { InvoiceLineEntity } from '../src/db/entities/invoice-line.entity.js';
import type { Buyer, Directory } from '../src/domain/directory.js';
import type { InvoicingDeps } from '../src/use-cases/deps.js';
import { invoiceCharge } from '../src/use-cases/invoice-charge.js';
import { buyer, charge, countingDirectory } from './support/charges.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

const clock = new TestClock('2026-03-01T09:00:00.000Z');
let database: TestSchema;
let orm: MikroORM;

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_group_race'));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

/**
 * The directory of `buyers`, whose seller answers only once `parties` transactions have asked:
 * they then look for the group's pending invoice at the same moment.
 */
function directoryMeetingAt(buyers: Map<string, Buyer>, parties: number): Directory {
  const { directory } = countingDirectory(buyers);
  let arrived = 0;
  let meet!: () => void;
  const met = new Promise<void>((resolve) => {
    meet = resolve;
  });
  return {
    ...directory,
    seller: async (context) => {
      arrived += 1;
      if (arrived === parties) meet();
      await met;
      return directory.seller(context);
    },
  };
}

it('two transactions with charges of one group at once make one pending invoice with both lines', async () => {
  const organizationId = randomUUID();
  const account = randomUUID();
  const buyers = new Map([[account, buyer(account, 'grouped')]]);
  const deps: InvoicingDeps = { orm, clock, directory: directoryMeetingAt(buyers, 2) };
  const grouped = { group_on_invoice: true };
  const origin = { organizationId, requestId: randomUUID() };

  await Promise.all(
    [charge(account, '30', grouped), charge(account, '20', grouped)].map((item) =>
      inTransaction(orm, (em) => invoiceCharge(deps, em, item, origin)),
    ),
  );

  const em = orm.em.fork();
  const invoices = await em.find(InvoiceEntity, { organization_id: organizationId });
  expect(invoices.map(({ status, account_code, total }) => ({ status, account_code, total }))).toEqual([
    { status: 'pending', account_code: 'grouped', total: '62.500000' },
  ]);
  const lines = await em.find(InvoiceLineEntity, { organization_id: organizationId }, { orderBy: { subtotal: 'asc' } });
  expect(lines.map(({ invoice_id, subtotal }) => [invoice_id, subtotal])).toEqual([
    [invoices[0]!.id, '20.000000'],
    [invoices[0]!.id, '30.000000'],
  ]);
});
