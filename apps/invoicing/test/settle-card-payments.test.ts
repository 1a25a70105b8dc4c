/**
 * SettleCardPayments (payments' batch of card charges), against a real, migrated throwaway schema:
 * settling several invoices in one transaction writes what SettleCardPayment one invoice at a time
 * writes (invoices paid, versions, invoice.paid events, audit rows), leaves invoices that cannot be
 * paid unchanged, answers the invoices found, and changes nothing when asked again.
 */
import { randomUUID } from 'node:crypto';
import { AuditLogEntry, inTransaction } from '@billing/db';
import { decodeEnvelope } from '@billing/events';
import { invoiceEventsV1 } from '@billing/proto';
import { TestClock, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceEntity } from '../src/db/entities/invoice.entity.js';
import { InvoiceReminderEntity } from '../src/db/entities/invoice-reminder.entity.js';
import { invoiceViewsOfRows, invoiceViewsWithLines } from '../src/db/invoice-view.js';
import { lockIssuedInvoiceRows } from '../src/db/settle-store.js';
import type { Buyer } from '../src/domain/directory.js';
import { settleCardPayment } from '../src/use-cases/invoice-actions.js';
import { invoiceCharges } from '../src/use-cases/invoice-charge.js';
import { settleCardPayments } from '../src/use-cases/settle-card-payments.js';
import { buyer, charge, countingDirectory } from './support/charges.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

const clock = new TestClock('2026-03-01T09:00:00.000Z');
let database: TestSchema;
let orm: MikroORM;

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_settle'));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

/** An organization with three card invoices (1..3) and a card credit note (4), issued. */
async function issuedCardInvoices() {
  const organizationId = randomUUID();
  const account = randomUUID();
  const buyers = new Map<string, Buyer>([[account, buyer(account, 'carla')]]);
  const { directory } = countingDirectory(buyers);
  const card = { collection_method: 'payment_card' };
  await inTransaction(orm, (em) =>
    invoiceCharges(
      { orm, clock, directory },
      em,
      [
        charge(account, '100', card),
        charge(account, '200', card),
        charge(account, '300', card),
        charge(account, '-40', { ...card, kind: 'adjustment' }),
      ].map((item) => ({
        charge: item,
        origin: { organizationId, requestId: randomUUID(), occurredAt: clock.now() },
      })),
    ),
  );
  const rows = await orm.em
    .fork()
    .find(InvoiceEntity, { organization_id: organizationId }, { orderBy: { invoice_number: 'asc' } });
  return { organizationId, directory, ids: rows.map((row) => row.id) };
}

const contextOf = (organizationId: string) => ({ requestId: randomUUID(), organizationId, clientSystem: 'payments' });

/** What settling wrote for an organization, comparable across organizations. */
async function written(organizationId: string) {
  const em = orm.em.fork();
  const invoices = await em.find(
    InvoiceEntity,
    { organization_id: organizationId },
    { orderBy: { invoice_number: 'asc' } },
  );
  const numberOf = new Map(invoices.map((invoice) => [invoice.id, invoice.invoice_number]));
  const audits = await em.find(AuditLogEntry, { organizationId, action: 'invoice.card_payment' });
  const outbox = await em
    .getConnection()
    .execute<{ payload: Buffer }[]>('select payload from outbox order by position');
  return {
    invoices: invoices.map((invoice) => [
      invoice.invoice_number,
      invoice.status,
      invoice.balance,
      invoice.paid_date,
      invoice.version,
    ]),
    paidEvents: outbox
      .map((row) => decodeEnvelope(row.payload))
      .filter((envelope) => envelope.organization_id === organizationId && envelope.event_type === 'invoice.paid')
      .map((envelope) => {
        const invoice = invoiceEventsV1.InvoiceChanged.decode(envelope.payload).invoice!;
        return [invoice.invoice_number, invoice.status, invoice.balance, invoice.version, invoice.lines.length];
      }),
    audits: audits
      .map((audit) => [numberOf.get(audit.objectId), (audit.details as { paid_date: string }).paid_date])
      .sort(),
  };
}

describe('settleCardPayments', () => {
  it('pays the invoices of a batch as one call each would, once', async () => {
    const one = await issuedCardInvoices();
    const deps = { orm, clock, directory: one.directory };
    for (const [index, uuid] of [one.ids[0]!, one.ids[2]!, one.ids[3]!].entries()) {
      await settleCardPayment(deps, contextOf(one.organizationId), uuid, randomUUID(), `2026-03-0${index + 1}`);
    }

    const batch = await issuedCardInvoices();
    const unknown = randomUUID();
    const settlements = [
      { uuid: batch.ids[0]!, payment: randomUUID(), paidDate: '2026-03-01' },
      { uuid: unknown, payment: randomUUID(), paidDate: '2026-03-01' },
      { uuid: batch.ids[2]!, payment: randomUUID(), paidDate: '2026-03-02' },
      // A credit note is never paid; asked twice, the first settlement counts.
      { uuid: batch.ids[3]!, payment: randomUUID(), paidDate: '2026-03-03' },
      { uuid: batch.ids[0]!, payment: randomUUID(), paidDate: '2026-03-09' },
    ];
    const answered = await settleCardPayments(
      { orm, clock, directory: batch.directory },
      contextOf(batch.organizationId),
      settlements,
    );
    expect(answered).toEqual([batch.ids[0], batch.ids[2], batch.ids[3]]);

    const expected = await written(one.organizationId);
    expect(await written(batch.organizationId)).toEqual(expected);
    expect(expected).toEqual({
      invoices: [
        [1, 'paid', '0.000000', '2026-03-01', 2],
        [2, 'open', '250.000000', null, 1],
        [3, 'paid', '0.000000', '2026-03-02', 2],
        [4, 'open', '-50.000000', null, 1],
      ],
      paidEvents: [
        ['1', 'paid', '0.00', 2, 1],
        ['3', 'paid', '0.00', 2, 1],
      ],
      audits: [
        [1, '2026-03-01'],
        [3, '2026-03-02'],
      ],
    });

    // Asked again (payments retrying after a lost answer): the same answer, nothing written.
    const again = await settleCardPayments(
      { orm, clock, directory: batch.directory },
      contextOf(batch.organizationId),
      settlements,
    );
    expect(again).toEqual(answered);
    expect(await written(batch.organizationId)).toEqual(expected);
  });

  it('reads the invoices, their lines and reminders as plain rows as the entities present them', async () => {
    const { organizationId, ids } = await issuedCardInvoices();
    await inTransaction(orm, async (em) => {
      em.create(InvoiceReminderEntity, {
        id: randomUUID(),
        organization_id: organizationId,
        invoice_id: ids[1]!,
        number: 1,
        date: '2026-03-20',
        days_after_due: 5,
        fee: '12.500000',
        fee_draft_line_id: null,
        recipients: ['carla@example.test'],
        created_at: new Date('2026-03-20T08:00:00.123Z'),
      });
    });
    const em = orm.em.fork();
    const entities = await em.find(InvoiceEntity, { id: { $in: ids } }, { orderBy: { id: 'asc' } });
    const rows = await inTransaction(orm, (tx) => lockIssuedInvoiceRows(tx, organizationId, [...ids, ids[0]!]));
    expect(rows.map((row) => row.id)).toEqual(entities.map((entity) => entity.id));
    const fromRows = await invoiceViewsOfRows(orm.em.fork(), rows);
    expect(fromRows).toEqual(await invoiceViewsWithLines(em, entities));
    expect(fromRows.flatMap((view) => (view.reminders ?? []).map((reminder) => reminder.fee))).toEqual(['12.50']);
    for (const [index, row] of rows.entries()) {
      const entity = entities[index]!;
      for (const key of ['invoice_number', 'issued_at', 'issue_after', 'created_at', 'updated_at'] as const)
        expect(row[key]).toEqual(entity[key]);
    }
    // Another organization sees none of them.
    expect(await inTransaction(orm, (tx) => lockIssuedInvoiceRows(tx, randomUUID(), ids))).toEqual([]);
  });
});
