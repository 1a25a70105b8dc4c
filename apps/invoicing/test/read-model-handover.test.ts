/**
 * Draft line versions and the hand-over of committed draft line events to the accounts read model
 * (docs: shared design "read-your-writes"), against a real, migrated throwaway schema: every path
 * that changes or invoices a line bumps its version, publishes its event in the same transaction,
 * and hands exactly the outbox bytes to the read model after the commit, never before and never
 * for a transaction that failed.
 */
import { randomUUID } from 'node:crypto';
import { decodeEnvelope, type EventEnvelope, encodeEnvelope, handleEventOnce } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { invoiceEventsV1, type invoicingV1, subscriptionEventsV1 } from '@billing/proto';
import { accountsReadModel, readModelHandOver } from '@billing/read-model-client';
import { TestClock, type TestSchema, waitFor } from '@billing/testing';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Buyer, Directory, Seller } from '../src/domain/directory.js';
import { ACCOUNTS_READ_MODEL_EVENT_TYPES } from '../src/events/accounts-hand-over.js';
import { invoiceChargeCreated } from '../src/events/charge-consumer.js';
import { HandOverTracker } from '../src/events/hand-over-tracker.js';
import { draftLineHandlers } from '../src/grpc/draft-line-handlers.js';
import { awaitCharges } from '../src/use-cases/await-charges.js';
import type { InvoicingDeps } from '../src/use-cases/deps.js';
import { generateInvoice } from '../src/use-cases/generate-invoice.js';
import { GROUP_WINDOW_MS } from '../src/use-cases/invoice-charge.js';
import { issueDuePendingInvoices } from '../src/use-cases/issue-pending.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

const T0 = '2026-01-15T09:00:00.000Z';
const clock = new TestClock(T0);
let database: TestSchema;
let orm: MikroORM;

/** A deferred constraint trigger: a line with this description makes its transaction's COMMIT fail. */
const FAILS_AT_COMMIT = 'fails at commit';

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_handover'));
  const connection = orm.em.getConnection();
  await connection.execute(
    `create function refuse_at_commit() returns trigger language plpgsql as $$
     begin
       if new.description = '${FAILS_AT_COMMIT}' then raise exception 'refused at commit'; end if;
       return null;
     end $$`,
  );
  await connection.execute(
    `create constraint trigger draft_line_refused_at_commit after insert on draft_invoice_line
     deferrable initially deferred for each row execute function refuse_at_commit()`,
  );
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

const party = { name: 'Acme', address: '', zipcode: '', city: '', country: 'DK', vat_number: '', email: '' };
const realClockSeller: Seller = {
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
/** The organization on a test clock: the charge consumer hands its events over only then. */
const testClockSeller: Seller = { ...realClockSeller, test_clock_time: new Date(T0) };
/** The seller the directory answers with (each test sets it in beforeEach or itself). */
let seller = realClockSeller;
beforeEach(() => {
  seller = realClockSeller;
});
/** What was announced to the (in-memory) accounts service, in order. */
const announced: { accountId: string; invoiceIds: string[] }[] = [];
/** Fixed facts in memory: these tests are about invoicing's own transactions. */
const buyerOf = (accountId: string): Buyer => ({
  account_id: accountId,
  code: `acc-${accountId.slice(0, 8)}`,
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
});
const directory: Directory = {
  buyer: async (_context, accountId) => buyerOf(accountId),
  buyers: async (_context, accountIds) => new Map(accountIds.map((id) => [id, buyerOf(id)])),
  seller: async () => seller,
  accountSummaries: async () => [],
  announceInvoices: async (_context, accountId, invoiceIds) => {
    announced.push({ accountId, invoiceIds: [...invoiceIds] });
  },
  announceAccountsInvoices: async (_context, announcements) => {
    for (const { accountId, invoiceIds } of announcements) announced.push({ accountId, invoiceIds: [...invoiceIds] });
  },
  close() {},
};

interface HandedOver {
  organization: string | undefined;
  event_types: string[];
  /** Each envelope's line as another connection sees it while the hand-over runs: committed state only. */
  seen: ({ version: number; invoiced: boolean } | { version: number; status: string } | null)[];
  envelopes: Uint8Array[];
}

/** A read model sender that records what it is handed and what was committed at that moment. */
function recordingSender() {
  const handed: HandedOver[] = [];
  return {
    handed,
    send: async (envelopes: Uint8Array[], context: RequestContext) => {
      const decoded = envelopes.map((bytes) => decodeEnvelope(bytes));
      const seen = await Promise.all(
        decoded.map((envelope) =>
          envelope.aggregate_type === 'invoice'
            ? committedInvoice(envelope.aggregate_id)
            : committedLine(envelope.aggregate_id),
        ),
      );
      handed.push({
        organization: context.organizationId,
        event_types: decoded.map((envelope) => envelope.event_type),
        seen,
        envelopes,
      });
    },
  };
}

/** Read outside any transaction of the code under test (a pooled connection of its own). */
async function committedLine(id: string): Promise<{ version: number; invoiced: boolean } | null> {
  const [row] = await orm.em
    .fork()
    .getConnection()
    .execute<{ version: number; invoiced_at: Date | null }[]>(
      `select version, invoiced_at from draft_invoice_line where id = ?`,
      [id],
    );
  return row ? { version: row.version, invoiced: row.invoiced_at !== null } : null;
}

/** An invoice as another connection sees it: committed state only. */
async function committedInvoice(id: string): Promise<{ version: number; status: string } | null> {
  const [row] = await orm.em
    .fork()
    .getConnection()
    .execute<{ version: number; status: string }[]>(`select version, status from invoice where id = ?`, [id]);
  return row ? { version: row.version, status: row.status } : null;
}

const warnings: string[] = [];
const logger = { warn: (_details: object, message: string) => void warnings.push(message) };

function depsWith(sender: { send: (envelopes: Uint8Array[], context: RequestContext) => Promise<void> }) {
  const deps: InvoicingDeps = {
    orm,
    clock,
    directory,
    committedEvents: readModelHandOver(sender, ACCOUNTS_READ_MODEL_EVENT_TYPES, logger),
  };
  return { deps, handlers: draftLineHandlers(deps) };
}

const organization = (): RequestContext => ({
  requestId: `req-${randomUUID()}`,
  organizationId: randomUUID(),
  clientSystem: 'test',
});

const write = (line: invoicingV1.DraftLineInput) => ({ line, present_fields: Object.keys(line) });

const minimal = (account: string, overrides: invoicingV1.DraftLineInput = {}): invoicingV1.DraftLineInput => ({
  account,
  description: 'Onboarding workshop',
  vat_type: 'services',
  currency: 'DKK',
  price: '100',
  ...overrides,
});

/** The organization's outbox rows, oldest first: event id, type and the line carried. */
async function outboxOf(organizationId: string) {
  const rows = await orm.em
    .getConnection()
    .execute<{ payload: Buffer }[]>(`select payload from outbox order by position`);
  return rows
    .map((row) => ({ bytes: new Uint8Array(row.payload), envelope: decodeEnvelope(row.payload) }))
    .filter(({ envelope }) => envelope.organization_id === organizationId)
    .map(({ bytes, envelope }) => ({
      bytes,
      event_type: envelope.event_type,
      line: envelope.event_type.startsWith('draft_invoice_line.')
        ? invoiceEventsV1.DraftInvoiceLineChanged.decode(envelope.payload).line
        : undefined,
    }));
}

const draftLineEvents = async (organizationId: string) =>
  (await outboxOf(organizationId))
    .filter((event) => event.line !== undefined)
    .map((event) => [event.event_type, event.line]);

describe('draft line changes', () => {
  it('version 1 on create, +1 on each update and on delete; each change is handed over after its commit', async () => {
    const sender = recordingSender();
    const { handlers } = depsWith(sender);
    const context = organization();
    const created = (await handlers.createDraftLine(write(minimal(randomUUID())), context)).line!;
    clock.advanceMs(1_000);
    const patched = (
      await handlers.updateDraftLine({ uuid: created.uuid, replace: false, ...write({ quantity: '2' }) }, context)
    ).line!;
    const replaced = (
      await handlers.updateDraftLine(
        { uuid: created.uuid, replace: true, ...write(minimal(created.account, { description: 'Replaced' })) },
        context,
      )
    ).line!;
    await handlers.deleteDraftLine({ uuid: created.uuid }, context);

    expect([created.version, patched.version, replaced.version]).toEqual([1, 2, 3]);
    expect(await draftLineEvents(context.organizationId!)).toEqual([
      ['draft_invoice_line.created', created],
      ['draft_invoice_line.updated', patched],
      ['draft_invoice_line.updated', replaced],
      ['draft_invoice_line.deleted', { ...replaced, version: 4 }],
    ]);
    expect(sender.handed.map(({ organization, event_types, seen }) => ({ organization, event_types, seen }))).toEqual([
      {
        organization: context.organizationId,
        event_types: ['draft_invoice_line.created'],
        seen: [{ version: 1, invoiced: false }],
      },
      {
        organization: context.organizationId,
        event_types: ['draft_invoice_line.updated'],
        seen: [{ version: 2, invoiced: false }],
      },
      {
        organization: context.organizationId,
        event_types: ['draft_invoice_line.updated'],
        seen: [{ version: 3, invoiced: false }],
      },
      { organization: context.organizationId, event_types: ['draft_invoice_line.deleted'], seen: [null] },
    ]);
    // Exactly the outbox bytes, so the receiver's inbox knows the JetStream copy for the same event.
    expect(sender.handed.flatMap((call) => call.envelopes)).toEqual(
      (await outboxOf(context.organizationId!)).map((event) => event.bytes),
    );
  });

  it('hands nothing over when the transaction fails, even after its events were written', async () => {
    const sender = recordingSender();
    const { handlers } = depsWith(sender);
    const context = organization();
    const account = randomUUID();

    await expect(
      handlers.createDraftLine(write(minimal(account, { description: FAILS_AT_COMMIT })), context),
    ).rejects.toThrow();
    await expect(handlers.createDraftLine(write({ price: '1' }), context)).rejects.toThrow();

    expect(sender.handed).toEqual([]);
    expect(await outboxOf(context.organizationId!)).toEqual([]);
    expect((await handlers.listDraftLines({ account }, context)).lines).toEqual([]);
  });

  it('a read model that cannot be reached is logged and skipped without waiting for a deadline', async () => {
    const unreachable = accountsReadModel('127.0.0.1:1');
    try {
      const { handlers } = depsWith(unreachable);
      const context = organization();
      const before = warnings.length;
      const started = performance.now();
      const line = (await handlers.createDraftLine(write(minimal(randomUUID())), context)).line!;
      const elapsedMs = performance.now() - started;

      expect(line.version).toBe(1);
      expect(warnings.slice(before)).toEqual([
        'could not hand committed events to their read model; the event stream will deliver them',
      ]);
      // The hand-over deadline is 1 s: a refused connection fails at once instead.
      expect(elapsedMs).toBeLessThan(900);
      expect((await handlers.getDraftLine({ uuid: line.uuid }, context)).line).toEqual(line);
    } finally {
      unreachable.close();
    }
  });
});

describe('invoiced lines', () => {
  it('generate_invoice bumps the version, publishes draft_invoice_line.invoiced and hands it over after commit', async () => {
    const sender = recordingSender();
    const { deps, handlers } = depsWith(sender);
    const context = organization();
    const account = randomUUID();
    const line = (await handlers.createDraftLine(write(minimal(account)), context)).line!;
    const patched = (
      await handlers.updateDraftLine({ uuid: line.uuid, replace: false, ...write({ po_number: 'PO-7' }) }, context)
    ).line!;
    const waiting = (
      await handlers.createDraftLine(write(minimal(account, { include_in_next_renewal_invoice: true })), context)
    ).line!;
    sender.handed.length = 0;

    const [invoice] = await generateInvoice(deps, context, { account });

    expect(invoice?.lines.map((invoiceLine) => invoiceLine.description)).toEqual(['Onboarding workshop']);
    const invoiced = { ...patched, version: 3 };
    expect((await draftLineEvents(context.organizationId!)).slice(-1)).toEqual([
      ['draft_invoice_line.invoiced', invoiced],
    ]);
    expect(sender.handed.map(({ organization, event_types, seen }) => ({ organization, event_types, seen }))).toEqual([
      {
        organization: context.organizationId,
        event_types: ['draft_invoice_line.invoiced', 'invoice.issued'],
        seen: [
          { version: 3, invoiced: true },
          { version: 1, status: 'open' },
        ],
      },
    ]);
    // Announced to accounts, inside the transaction, under the uuid it was committed with.
    expect(announced.at(-1)).toEqual({ accountId: account, invoiceIds: [invoice!.uuid] });
    expect(
      invoiceEventsV1.DraftInvoiceLineChanged.decode(decodeEnvelope(sender.handed[0]!.envelopes[0]!).payload),
    ).toEqual({ line: invoiced });
    expect(await committedLine(waiting.uuid)).toEqual({ version: 1, invoiced: false });
  });

  it('a renewal invoice takes the lines waiting for it in the consumer transaction, handed over once it commits', async () => {
    seller = testClockSeller;
    const { sender, deps, handlers, context, account, waiting } = await accountWithLineWaitingForRenewal();
    const notWaiting = (await handlers.createDraftLine(write(minimal(account)), context)).line!;
    sender.handed.length = 0;
    const consumer = { orm, clock, consumer: 'test-charges' };

    // The same transaction as the charge consumer's (inbox row + effects), failing after the work.
    const failing = chargeCreated(context.organizationId!, account);
    await expect(
      handleEventOnce(consumer, failing, async (em: EntityManager, envelope: EventEnvelope) => {
        await invoiceChargeCreated(deps, em, envelope);
        throw new Error('the consumer transaction fails after invoicing');
      }),
    ).rejects.toThrow('the consumer transaction fails after invoicing');
    expect(sender.handed).toEqual([]);
    expect(await committedLine(waiting.uuid)).toEqual({ version: 1, invoiced: false });

    expect(await handleEventOnce(consumer, failing, (em, envelope) => invoiceChargeCreated(deps, em, envelope))).toBe(
      true,
    );

    const invoiced = { ...waiting, version: 2 };
    expect((await draftLineEvents(context.organizationId!)).slice(-1)).toEqual([
      ['draft_invoice_line.invoiced', invoiced],
    ]);
    expect(sender.handed.map(({ organization, event_types, seen }) => ({ organization, event_types, seen }))).toEqual([
      {
        organization: context.organizationId,
        event_types: ['draft_invoice_line.invoiced', 'invoice.issued'],
        seen: [
          { version: 2, invoiced: true },
          { version: 1, status: 'open' },
        ],
      },
    ]);
    const outboxHandedOver = (await outboxOf(context.organizationId!)).filter((event) =>
      ['draft_invoice_line.invoiced', 'invoice.issued'].includes(event.event_type),
    );
    expect(sender.handed[0]!.envelopes).toEqual(outboxHandedOver.map((event) => event.bytes));
    expect(await committedLine(notWaiting.uuid)).toEqual({ version: 1, invoiced: false });
  });

  it("hands nothing over for a real-clock organization's renewal invoice: the stream carries its events", async () => {
    const { sender, deps, context, account, waiting } = await accountWithLineWaitingForRenewal();
    sender.handed.length = 0;

    const charge = chargeCreated(context.organizationId!, account);
    expect(
      await handleEventOnce({ orm, clock, consumer: 'test-charges' }, charge, (em, envelope) =>
        invoiceChargeCreated(deps, em, envelope),
      ),
    ).toBe(true);

    expect(sender.handed).toEqual([]);
    // Committed with their outbox rows, which the relay publishes for the read model's durable consumer.
    expect(await committedLine(waiting.uuid)).toEqual({ version: 2, invoiced: true });
    expect(
      (await outboxOf(context.organizationId!))
        .map((event) => event.event_type)
        .filter((type) => ['draft_invoice_line.invoiced', 'invoice.issued'].includes(type)),
    ).toEqual(['draft_invoice_line.invoiced', 'invoice.issued']);
  });
});

describe('the grouped-invoice issuer (the worker pass, issueDuePendingInvoices)', () => {
  /**
   * A grouped renewal invoice of a new organization, pending until its group window has passed on
   * the issuer's clock. The issuer's deps hand over through a gate the test opens, tracked by
   * `handOvers`, and ask the directory `issuerDirectory` (the shared one unless given).
   */
  async function pendingGroupedInvoice(issuerDirectory: Directory = directory) {
    const issuerClock = new TestClock(T0);
    const context = organization();
    const charge = chargeCreated(context.organizationId!, randomUUID(), true);
    const { deps: chargeDeps } = depsWith(recordingSender());
    expect(
      await handleEventOnce({ orm, clock, consumer: 'test-charges' }, charge, (em, envelope) =>
        invoiceChargeCreated({ ...chargeDeps, clock: issuerClock }, em, envelope),
      ),
    ).toBe(true);
    const sender = recordingSender();
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const { deps } = depsWith({
      send: async (envelopes, handOverContext) => {
        await gate;
        await sender.send(envelopes, handOverContext);
      },
    });
    const handOvers = new HandOverTracker();
    const issuer: InvoicingDeps = { ...deps, clock: issuerClock, handOvers, directory: issuerDirectory };
    expect(await issueDuePendingInvoices(issuer)).toBe(0);
    issuerClock.advanceMs(GROUP_WINDOW_MS);
    return { issuer, handOvers, sender, openGate, context };
  }

  /** The organization's invoices' statuses, as another connection sees them. */
  const statusesOf = async (organizationId: string) =>
    (
      await orm.em
        .fork()
        .getConnection()
        .execute<{ status: string }[]>('select status from invoice where organization_id = ?', [organizationId])
    ).map((row) => row.status);

  it("hands a test-clock organization's invoice over after its commit; a test clock's wait that finds it issued answers only after that", async () => {
    seller = testClockSeller;
    // The issuer's pass is held inside its transaction (the invoice's row locked) until released.
    let releaseBuyer!: () => void;
    const buyerHeld = new Promise<void>((resolve) => {
      releaseBuyer = resolve;
    });
    let passHoldsLock = false;
    const { issuer, sender, openGate, context } = await pendingGroupedInvoice({
      ...directory,
      buyer: async (_context, accountId) => {
        passHoldsLock = true;
        await buyerHeld;
        return buyerOf(accountId);
      },
    });

    const issuing = issueDuePendingInvoices(issuer);
    await waitFor(() => passHoldsLock, { description: "the issuer's pass to lock the invoice" });
    // The test clock's wait (an advance with no charges of its own): its pass of the organization's
    // pending invoices waits on the issuer's lock, then finds the invoice issued.
    let answered = false;
    const advance = awaitCharges(issuer, context, [], 10_000).then(() => {
      answered = true;
    });
    releaseBuyer();
    expect(await issuing).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Accounts has not been handed the invoice yet: the wait must not have answered.
    expect([answered, sender.handed, await statusesOf(context.organizationId!)]).toEqual([false, [], ['open']]);

    openGate();
    await advance;
    expect(sender.handed.map(({ organization, event_types, seen }) => ({ organization, event_types, seen }))).toEqual([
      { organization: context.organizationId, event_types: ['invoice.issued'], seen: [{ version: 1, status: 'open' }] },
    ]);
  });

  it("hands nothing over for a real-clock organization's invoice: the stream carries its events", async () => {
    const { issuer, handOvers, sender, openGate, context } = await pendingGroupedInvoice();
    openGate();

    expect(await issueDuePendingInvoices(issuer)).toBe(1);
    await handOvers.idle();
    expect([sender.handed, await statusesOf(context.organizationId!)]).toEqual([[], ['open']]);
  });

  it('a pass that fails leaves the invoice pending and no hand-over for a wait to wait for', async () => {
    seller = testClockSeller;
    const { issuer, handOvers, sender, openGate, context } = await pendingGroupedInvoice({
      ...directory,
      seller: async () => {
        throw new Error('accounts is unavailable');
      },
    });
    openGate();

    await expect(issueDuePendingInvoices(issuer)).rejects.toThrow('accounts is unavailable');
    await handOvers.idle();
    expect([sender.handed, await statusesOf(context.organizationId!)]).toEqual([[], ['pending']]);
  });
});

/** An account of a new organization with a draft line waiting for its next renewal invoice, made through the handlers. */
async function accountWithLineWaitingForRenewal() {
  const sender = recordingSender();
  const { deps, handlers } = depsWith(sender);
  const context = organization();
  const account = randomUUID();
  const waiting = (
    await handlers.createDraftLine(write(minimal(account, { include_in_next_renewal_invoice: true })), context)
  ).line!;
  return { sender, deps, handlers, context, account, waiting };
}

/**
 * A renewal charge.created of the subscription engine: ungrouped (its invoice is issued at once),
 * or grouped (its invoice waits pending for the group window, then the grouped-invoice issuer).
 */
function chargeCreated(organizationId: string, account: string, grouped = false): EventEnvelope {
  const charge = subscriptionEventsV1.ChargeCreated.fromPartial({
    charge: {
      uuid: randomUUID(),
      subscription: randomUUID(),
      account,
      kind: 'renewal',
      currency: 'DKK',
      amount: '100.00',
      due_at: new Date(T0),
      period_start: new Date(T0),
      group_on_invoice: grouped,
      collection_method: 'invoice',
      lines: [
        {
          kind: 'renewal',
          terms: randomUUID(),
          plan: randomUUID(),
          plan_name: 'Pro',
          plan_code: 'pro',
          terms_code: 'monthly',
          collect_vat: true,
          vat_type: 'services',
          date_from: '2026-01-15',
          date_to: '2026-02-14',
          days: 31,
          period_days: 31,
          period_date_from: '2026-01-15',
          period_date_to: '2026-02-14',
          quantity: 1,
          unit_price: '100.00',
          price_source: 'terms',
          discounted_unit_price: '100.00',
          amount: '100.00',
        },
      ],
    },
  });
  const eventId = randomUUID();
  return decodeEnvelope(
    encodeEnvelope({
      event_id: eventId,
      event_type: 'charge.created',
      schema_version: 1,
      organization_id: organizationId,
      occurred_at: new Date(T0),
      request_id: `req-${eventId}`,
      aggregate_type: 'charge',
      aggregate_id: randomUUID(),
      payload_type: 'billing.events.v1.ChargeCreated',
      payload: Buffer.from(subscriptionEventsV1.ChargeCreated.encode(charge).finish()),
    }),
  );
}
