/**
 * The charge consumer's batches (invoiceCharges), against a real, migrated throwaway schema: a
 * batch of charges in one transaction gives exactly the invoices, numbers, lines, draft lines,
 * mail jobs and events that the same charges give one transaction each, in the same order; the
 * accounts service (fixed facts in memory, counting its calls) is asked once per batch.
 */
import { randomUUID } from 'node:crypto';
import { AuditLogEntry, inTransaction } from '@billing/db';
import { decodeEnvelope } from '@billing/events';
import { invoiceEventsV1 } from '@billing/proto';
import { TestClock, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DraftInvoiceLineEntity } from '../src/db/entities/draft-invoice-line.entity.js';
import { InvoiceEntity } from '../src/db/entities/invoice.entity.js';
import { InvoiceLineEntity } from '../src/db/entities/invoice-line.entity.js';
import { InvoicedChargeEntity } from '../src/db/entities/invoiced-charge.entity.js';
import { MailJobEntity } from '../src/db/entities/mail-job.entity.js';
import { invoiceViewWithLines } from '../src/db/invoice-view.js';
import type { Buyer } from '../src/domain/directory.js';
import { invoiceMessage } from '../src/grpc/invoice-mapper.js';
import type { InvoicingDeps } from '../src/use-cases/deps.js';
import { invoiceCharge, invoiceCharges } from '../src/use-cases/invoice-charge.js';
import { buyer, charge, countingDirectory } from './support/charges.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

const clock = new TestClock('2026-03-01T09:00:00.000Z');
let database: TestSchema;
let orm: MikroORM;

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_batch'));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

/** One organization's accounts: alma (with a draft line waiting), bent (a recipient), a reseller and the shop it resells. */
function organizationAccounts() {
  const ids = { alma: randomUUID(), bent: randomUUID(), partner: randomUUID(), shop: randomUUID() };
  const buyers = new Map<string, Buyer>([
    [ids.alma, buyer(ids.alma, 'alma')],
    [ids.bent, buyer(ids.bent, 'bent', { recipients: [{ email: 'bent@example.test', name: 'Bent' }] })],
    [ids.partner, buyer(ids.partner, 'partner', { reseller_billing_frequency: 'end_of_month' })],
    [ids.shop, buyer(ids.shop, 'shop', { reseller: ids.partner })],
  ]);
  return { ids, buyers };
}

/** The same story for one organization: its charges, in order, and a draft line waiting for alma's next renewal. */
async function story() {
  const organizationId = randomUUID();
  const { ids, buyers } = organizationAccounts();
  await inTransaction(orm, async (em) => {
    for (const [description, currency] of [
      ['Setup', 'DKK'],
      ['Support', 'EUR'],
    ] as const) {
      em.create(DraftInvoiceLineEntity, {
        id: randomUUID(),
        organization_id: organizationId,
        account_id: ids.alma,
        description,
        vat_type: 'services',
        collect_vat: true,
        date_from: null,
        date_to: null,
        price: '10',
        quantity: '1',
        discount_percentage: null,
        discount_fixed_per_quantity: null,
        discount_fixed_total: null,
        currency,
        include_in_next_renewal_invoice: true,
        revenue_group: null,
        reference_person: '',
        account_reference_person: '',
        po_number: '',
        case_number: '',
        invoice_supplement: null,
        custom_fields: {},
        invoiced_at: null,
        invoice_id: null,
        version: 1,
        created_at: clock.now(),
        updated_at: clock.now(),
      });
    }
  });
  const grouped = { group_on_invoice: true };
  const bent = charge(ids.bent, '200');
  const mistake = charge(ids.bent, '70');
  const charges = [
    charge(ids.alma, '100'),
    bent,
    // alma's second subscription: the waiting DKK draft line went with the first.
    charge(ids.alma, '50'),
    // The same charge delivered twice: invoiced once.
    bent,
    charge(ids.bent, '30', grouped),
    charge(ids.bent, '20', grouped),
    charge(ids.shop, '40'),
    // A one-off credit (a downgrade): its own credit note, issued in order.
    charge(ids.alma, '-25', { kind: 'adjustment' }),
    mistake,
    // cancel_invalid of the subscription invoiced just before, in the same batch: its invoice credited in full.
    charge(ids.bent, '-70', { kind: 'cancel_invalid', subscription: mistake.subscription, credit_all_invoices: true }),
  ];
  return { organizationId, buyers, charges };
}

/** What an organization's invoicing wrote, comparable across organizations. */
async function written(organizationId: string) {
  const em = orm.em.fork();
  const invoices = await em.find(
    InvoiceEntity,
    { organization_id: organizationId },
    { orderBy: [{ invoice_number: 'asc' }, { account_code: 'asc' }, { total: 'asc' }] },
  );
  const lines = await em.find(
    InvoiceLineEntity,
    { organization_id: organizationId },
    { orderBy: [{ sort_weight: 'asc' }, { id: 'asc' }] },
  );
  const drafts = await em.find(
    DraftInvoiceLineEntity,
    { organization_id: organizationId },
    { orderBy: { description: 'asc' } },
  );
  const mails = await em.find(MailJobEntity, { organization_id: organizationId }, { orderBy: { created_at: 'asc' } });
  const numberOf = new Map(
    invoices.map((invoice) => [invoice.id, invoice.invoice_number ?? `pending ${invoice.account_code}`]),
  );
  const invoicedCharges = await em.find(InvoicedChargeEntity, { organization_id: organizationId });
  const audits = await em.find(AuditLogEntry, { organizationId }, { orderBy: { occurredAt: 'asc' } });
  const outbox = await em
    .getConnection()
    .execute<{ payload: Buffer }[]>('select payload from outbox order by position');
  const events = outbox
    .map((row) => decodeEnvelope(row.payload))
    .filter((envelope) => envelope.organization_id === organizationId)
    .map((envelope) =>
      envelope.event_type === 'invoice.issued'
        ? [
            envelope.event_type,
            invoiceEventsV1.InvoiceChanged.decode(envelope.payload).invoice?.invoice_number,
            invoiceEventsV1.InvoiceChanged.decode(envelope.payload).invoice?.lines.map((line) => line.subtotal),
          ]
        : [envelope.event_type],
    );
  return {
    invoices: invoices.map((invoice) => ({
      number: invoice.invoice_number,
      status: invoice.status,
      account: invoice.account_code,
      date: invoice.date,
      total: invoice.total,
      credit_note: invoice.is_credit_note,
      version: invoice.version,
      lines: lines
        .filter((line) => line.invoice_id === invoice.id)
        .map((line) => [line.account_code, line.description.split('\n')[0], line.subtotal]),
    })),
    drafts: drafts.map((draft) => [
      draft.description,
      draft.invoice_id ? numberOf.get(draft.invoice_id) : null,
      draft.invoiced_at !== null,
      draft.version,
    ]),
    mails: mails.map((mail) => [numberOf.get(mail.invoice_id), mail.recipients, mail.reply_to, mail.reminder_id]),
    invoicedCharges: invoicedCharges.map((row) => numberOf.get(row.invoice_id)).sort(),
    audits: audits
      .map((audit) => [audit.action, numberOf.get(audit.objectId), JSON.stringify(audit.details), audit.clientSystem])
      .sort(),
    // Within an invoice, line ids ascend in sort order, as one insert after the other numbers them.
    lineIdsAscending: invoices.every((invoice) => {
      const ids = lines.filter((line) => line.invoice_id === invoice.id).map((line) => line.id);
      return ids.every((id, index) => index === 0 || id > ids[index - 1]!);
    }),
    events,
  };
}

/**
 * Each invoice.issued message of the organization whose invoice has not changed since (version 1)
 * carries the invoice as it is stored, lines (with their ids) included.
 */
async function issuedMessagesMatchStoredInvoices(organizationId: string): Promise<number> {
  const em = orm.em.fork();
  const outbox = await em
    .getConnection()
    .execute<{ payload: Buffer }[]>('select payload from outbox order by position');
  let compared = 0;
  for (const row of outbox) {
    const envelope = decodeEnvelope(row.payload);
    if (envelope.organization_id !== organizationId || envelope.event_type !== 'invoice.issued') continue;
    const sent = invoiceEventsV1.InvoiceChanged.decode(envelope.payload).invoice!;
    const stored = await em.findOneOrFail(InvoiceEntity, { id: sent.uuid });
    if (stored.version !== 1) continue;
    const asStored = invoiceEventsV1.InvoiceChanged.decode(
      invoiceEventsV1.InvoiceChanged.encode({
        invoice: invoiceMessage(await invoiceViewWithLines(em, stored)),
      }).finish(),
    ).invoice;
    expect(sent).toEqual(asStored);
    compared++;
  }
  return compared;
}

describe('a batch of charges in one transaction', () => {
  it('writes what the same charges write one transaction each, asking accounts once per batch', async () => {
    const one = await story();
    const oneByOne = countingDirectory(one.buyers);
    for (const item of one.charges) {
      await inTransaction(orm, (em) =>
        invoiceCharge({ orm, clock, directory: oneByOne.directory }, em, item, {
          organizationId: one.organizationId,
          requestId: randomUUID(),
          occurredAt: clock.now(),
        }),
      );
    }

    const batch = await story();
    const batched = countingDirectory(batch.buyers);
    const deps: InvoicingDeps = { orm, clock, directory: batched.directory };
    await inTransaction(orm, (em) =>
      invoiceCharges(
        deps,
        em,
        batch.charges.map((item) => ({
          charge: item,
          origin: { organizationId: batch.organizationId, requestId: randomUUID(), occurredAt: clock.now() },
        })),
      ),
    );

    const expected = await written(one.organizationId);
    expect(await written(batch.organizationId)).toEqual(expected);
    expect(expected.lineIdsAscending).toBe(true);
    expect(await issuedMessagesMatchStoredInvoices(one.organizationId)).toBe(4);
    expect(await issuedMessagesMatchStoredInvoices(batch.organizationId)).toBe(4);
    // What both wrote: numbers 1..6 in the charges' order, the cancel_invalid note credited to the
    // invoice issued before it in the same batch, the grouped and resold ones pending.
    expect(
      expected.invoices.map((invoice) => [invoice.number, invoice.account, invoice.total, invoice.status]),
    ).toEqual([
      [1, 'alma', '137.500000', 'open'],
      [2, 'bent', '250.000000', 'open'],
      [3, 'alma', '62.500000', 'open'],
      [4, 'alma', '-31.250000', 'open'],
      [5, 'bent', '87.500000', 'credited'],
      [6, 'bent', '-87.500000', 'credited'],
      [null, 'bent', '62.500000', 'pending'],
      [null, 'partner', '50.000000', 'pending'],
    ]);
    expect(expected.drafts).toEqual([
      ['Setup', 1, true, 2],
      ['Support', null, false, 1],
    ]);
    expect(expected.mails).toEqual([
      [2, [{ email: 'bent@example.test', name: 'Bent' }], 'billing@acme.test', null],
      [5, [{ email: 'bent@example.test', name: 'Bent' }], 'billing@acme.test', null],
      [6, [{ email: 'bent@example.test', name: 'Bent' }], 'billing@acme.test', null],
    ]);
    // One invoiced_charge per charge (the one delivered twice once), and one audit row per issue.
    expect(expected.invoicedCharges).toEqual([1, 2, 3, 4, 5, 6, 'pending bent', 'pending bent', 'pending partner']);
    expect(expected.audits.map(([action, number]) => [action, number])).toEqual([
      ['invoice.issue', 1],
      ['invoice.issue', 2],
      ['invoice.issue', 3],
      ['invoice.issue', 4],
      ['invoice.issue', 5],
      ['invoice.issue', 6],
    ]);
    expect(expected.events.filter(([type]) => type === 'invoice.issued').map(([, number]) => number)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    expect(expected.events.filter(([type]) => type !== 'invoice.issued')).toEqual([
      ['draft_invoice_line.invoiced'],
      ['invoice.credited'],
      ['invoice.updated'],
    ]);

    // The batch asked accounts for its buyers once, and once more for the reseller of one of them...
    expect(batched.calls).toMatchObject({ buyer: 0, buyers: 2, seller: 1, announce: 0, announceMany: 1 });
    // ...and announced each new invoice once, before its transaction committed.
    expect(batched.calls.announced.flatMap(([, ...invoices]) => invoices)).toHaveLength(8);

    // Delivered again (a redelivery after a lost ack): nothing more is written.
    await inTransaction(orm, (em) =>
      invoiceCharges(
        deps,
        em,
        batch.charges.map((item) => ({
          charge: item,
          origin: { organizationId: batch.organizationId, requestId: randomUUID(), occurredAt: clock.now() },
        })),
      ),
    );
    expect(await written(batch.organizationId)).toEqual(expected);
  });

  it('lets the next batch in once, only after the invoices issued at its end are numbered', async () => {
    // The story ends with a cancel_invalid note, issued on its own in the middle of its batch (its
    // credit needs the invoices before it written). Letting the next batch in there would let two
    // batches wait on each other when a redelivered charge is in both: this one still writes
    // invoiced charges after that numbering.
    const noteLast = await story();
    const noteMidway = await story();
    const afterNote = charge(noteMidway.buyers.keys().next().value as string, '10');
    let admittedNoteLast = 0;
    let admittedNoteMidway = 0;
    const origin = (organizationId: string) => ({ organizationId, requestId: randomUUID(), occurredAt: clock.now() });
    await inTransaction(orm, (em) =>
      invoiceCharges(
        { orm, clock, directory: countingDirectory(noteLast.buyers).directory },
        em,
        noteLast.charges.map((item) => ({ charge: item, origin: origin(noteLast.organizationId) })),
        { afterNumbering: () => admittedNoteLast++ },
      ),
    );
    await inTransaction(orm, (em) =>
      invoiceCharges(
        { orm, clock, directory: countingDirectory(noteMidway.buyers).directory },
        em,
        [...noteMidway.charges, afterNote].map((item) => ({ charge: item, origin: origin(noteMidway.organizationId) })),
        { afterNumbering: () => admittedNoteMidway++ },
      ),
    );
    // Nothing issued after the note: the next batch waits for the commit. One charge after it: let
    // in once, at the numbering of that charge's invoice (7), never at the note's (6).
    expect(admittedNoteLast).toBe(0);
    expect(admittedNoteMidway).toBe(1);
    const invoices = (await written(noteMidway.organizationId)).invoices;
    expect(invoices.filter((invoice) => invoice.number !== null).map((invoice) => invoice.number)).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);
  });
});
