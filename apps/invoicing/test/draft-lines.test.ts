/**
 * Draft invoice lines through the InvoicingService handlers against a real, migrated throwaway
 * schema and a real accounts service (the organizations and their base currency): representation,
 * DRF write semantics, the currency default, tenancy, audit rows, outbox events, and lines leaving
 * the API once invoiced (consumed once, also by two invoicing transactions at once).
 */
import { randomUUID } from 'node:crypto';
import { accountsModule, createOrganization } from '@billing/accounts';
import { inTransaction } from '@billing/db';
import { type AppError, isAppError, StatusCode } from '@billing/errors';
import { decodeEnvelope } from '@billing/events';
import { createLogger, type RequestContext } from '@billing/observability';
import { invoiceEventsV1, type invoicingV1 } from '@billing/proto';
import { changeScope, type RunningService, startService } from '@billing/runtime';
import { createTestSchema, TestClock, type TestSchema, waitFor } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingDraftLines } from '../src/db/draft-line-store.js';
import type { Directory } from '../src/domain/directory.js';
import { ONLY_ONE_DISCOUNT } from '../src/domain/draft-lines/fields.js';
import { accountsDirectory } from '../src/grpc/accounts-directory.js';
import { type DraftLineHandlers, draftLineHandlers } from '../src/grpc/draft-line-handlers.js';
import { markDraftLinesInvoiced } from '../src/use-cases/mark-draft-lines-invoiced.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

const T0 = '2026-01-15T09:00:00.000Z';
const clock = new TestClock(T0);
let database: TestSchema;
let orm: MikroORM;
let accountsDatabase: TestSchema;
let accounts: RunningService;
let directory: Directory;
let handlers: DraftLineHandlers;

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_drafts'));
  // The accounts service the way invoicing meets it in production: over gRPC (no event bus needed).
  accountsDatabase = await createTestSchema('invoicing_drafts_accounts');
  accounts = await startService(accountsModule, {
    databaseUrl: accountsDatabase.databaseUrl,
    schema: accountsDatabase.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    bus: null,
    migrateOnStart: true,
  });
  directory = accountsDirectory(accounts.address);
  handlers = draftLineHandlers({ orm, clock, directory });
});

afterAll(async () => {
  directory?.close();
  await accounts?.stop();
  await accountsDatabase?.drop();
  await orm?.close(true);
  await database?.drop();
});

const requestOf = (organizationId: string): RequestContext => ({
  requestId: `req-${randomUUID()}`,
  organizationId,
  clientSystem: 'test',
});

/** A request of a new organization of the accounts service (base currency DKK unless given). */
async function organization(settings: { base_currency?: string } = {}): Promise<RequestContext> {
  const { organization: created } = await createOrganization(
    { orm: accounts.orm, clock },
    { name: `Draft lines ${randomUUID()}`, ...settings },
  );
  return requestOf(created.id);
}

/** A write as the gateway sends it: the message plus the names of the fields the client sent. */
const input = (line: invoicingV1.DraftLineInput) => ({ line, present_fields: Object.keys(line) });

async function create(context: RequestContext, line: invoicingV1.DraftLineInput): Promise<invoicingV1.DraftLine> {
  return (await handlers.createDraftLine(input(line), context)).line!;
}

const minimal = (account: string, overrides: invoicingV1.DraftLineInput = {}): invoicingV1.DraftLineInput => ({
  account,
  description: 'Onboarding workshop',
  vat_type: 'services',
  currency: 'DKK',
  ...overrides,
});

async function failure(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

async function eventsOf(context: RequestContext) {
  const rows = await orm.em
    .getConnection()
    .execute<{ subject: string; payload: Buffer }[]>(`select subject, payload from outbox order by position`);
  return rows
    .map((row) => ({ subject: row.subject, envelope: decodeEnvelope(row.payload) }))
    .filter(({ envelope }) => envelope.organization_id === context.organizationId)
    .map(({ subject, envelope }) => ({
      subject,
      payload_type: envelope.payload_type,
      aggregate_id: envelope.aggregate_id,
      request_id: envelope.request_id,
      line: invoiceEventsV1.DraftInvoiceLineChanged.decode(envelope.payload).line,
    }));
}

async function auditOf(context: RequestContext) {
  return orm.em
    .getConnection()
    .execute<{ action: string; object_id: string; details: unknown }[]>(
      `select action, object_id, details from audit_log where organization_id = ? order by occurred_at, action`,
      [context.organizationId],
    );
}

describe('create and read', () => {
  it('creates a line with the defaults of every field not sent, and records it', async () => {
    const context = await organization();
    const account = randomUUID();
    const line = await create(context, minimal(account));

    expect(line).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      account,
      description: 'Onboarding workshop',
      vat_type: 'services',
      collect_vat: true,
      date_from: undefined,
      date_to: undefined,
      price: '0.00',
      quantity: '1.00',
      discount_percentage: undefined,
      discount_fixed_per_quantity: undefined,
      discount_fixed_total: undefined,
      currency: 'DKK',
      include_in_next_renewal_invoice: false,
      revenue_group: undefined,
      created_date: new Date(T0),
      last_modified_date: new Date(T0),
      reference_person: '',
      account_reference_person: '',
      po_number: '',
      case_number: '',
      invoice_supplement: undefined,
      custom_fields: {},
      version: 1,
    });
    expect((await handlers.getDraftLine({ uuid: line.uuid }, context)).line).toEqual(line);
    expect(await auditOf(context)).toEqual([
      { action: 'draft_invoice_line.create', object_id: line.uuid, details: { account } },
    ]);
    expect(await eventsOf(context)).toEqual([
      {
        subject: 'invoicing.draft_invoice_line.created',
        payload_type: 'billing.events.v1.DraftInvoiceLineChanged',
        aggregate_id: line.uuid,
        request_id: context.requestId,
        line,
      },
    ]);
  });

  it('stores every field exactly and shows decimals with at least two places', async () => {
    const context = await organization();
    const account = randomUUID();
    const line = await create(context, {
      account,
      description: 'Hours, January',
      vat_type: 'physical',
      collect_vat: false,
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      price: '1249.995',
      quantity: '2.5',
      discount_fixed_per_quantity: '10',
      currency: 'EUR',
      include_in_next_renewal_invoice: true,
      revenue_group: 'consulting',
      reference_person: 'Ada',
      account_reference_person: 'Grace',
      po_number: 'PO-17',
      case_number: 'C-9',
      invoice_supplement: 'Delivered on site.',
      custom_fields: { project: 'Apollo', hours: 2.5 },
    });
    expect(line).toMatchObject({
      account,
      collect_vat: false,
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      price: '1249.995',
      quantity: '2.50',
      discount_percentage: undefined,
      discount_fixed_per_quantity: '10.00',
      discount_fixed_total: undefined,
      currency: 'EUR',
      include_in_next_renewal_invoice: true,
      revenue_group: 'consulting',
      reference_person: 'Ada',
      account_reference_person: 'Grace',
      po_number: 'PO-17',
      case_number: 'C-9',
      invoice_supplement: 'Delivered on site.',
      custom_fields: { project: 'Apollo', hours: 2.5 },
    });
    const [stored] = await orm.em
      .getConnection()
      .execute(`select price, quantity, discount_fixed_per_quantity from draft_invoice_line where id = ?`, [line.uuid]);
    expect(stored).toEqual({ price: '1249.995000', quantity: '2.500000', discount_fixed_per_quantity: '10.000000' });
  });

  it('refuses an invalid create with DRF field violations and writes nothing', async () => {
    const context = await organization();
    const missing = await failure(handlers.createDraftLine(input({ price: '10' }), context));
    expect(missing.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(missing.fieldViolations).toEqual([
      { field: 'account', description: 'This field is required.' },
      { field: 'description', description: 'This field is required.' },
      { field: 'vat_type', description: 'This field is required.' },
    ]);
    // Sent as null is not left out: no default, refused.
    const nullCurrency = await failure(
      handlers.createDraftLine(
        {
          line: minimal(randomUUID(), { currency: undefined }),
          present_fields: ['account', 'description', 'vat_type', 'currency'],
        },
        context,
      ),
    );
    expect(nullCurrency.fieldViolations).toEqual([{ field: 'currency', description: 'This field may not be null.' }]);

    const twoDiscounts = await failure(
      handlers.createDraftLine(
        input(minimal(randomUUID(), { price: '100', discount_percentage: '10', discount_fixed_total: '5' })),
        context,
      ),
    );
    expect(twoDiscounts.fieldViolations).toEqual([
      { field: 'discount_percentage', description: ONLY_ONE_DISCOUNT },
      { field: 'discount_fixed_total', description: ONLY_ONE_DISCOUNT },
    ]);

    const badValues = await failure(
      handlers.createDraftLine(
        input(
          minimal(randomUUID(), { vat_type: 'digital', quantity: '0', date_from: '2026-02-01', date_to: '2026-01-31' }),
        ),
        context,
      ),
    );
    expect(badValues.fieldViolations).toEqual([
      { field: 'vat_type', description: '"digital" is not a valid choice.' },
      { field: 'date_to', description: 'Ensure this date is on or after date_from.' },
      { field: 'quantity', description: 'Ensure this value is greater than 0.' },
    ]);
    expect((await handlers.listDraftLines({}, context)).count).toBe(0);
    expect(await auditOf(context)).toEqual([]);
    expect(await eventsOf(context)).toEqual([]);
  });

  it("answers NOT_FOUND for another organization's line, and for a path that is no uuid", async () => {
    const owner = await organization();
    const other = await organization();
    const line = await create(owner, minimal(randomUUID()));
    for (const call of [
      () => handlers.getDraftLine({ uuid: line.uuid }, other),
      () => handlers.updateDraftLine({ uuid: line.uuid, replace: false, ...input({ description: 'Hijack' }) }, other),
      () => handlers.deleteDraftLine({ uuid: line.uuid }, other),
      () => handlers.getDraftLine({ uuid: 'not-a-uuid' }, owner),
    ]) {
      const error = await failure(call());
      expect([error.code, error.message]).toEqual([StatusCode.NOT_FOUND, 'Not found.']);
    }
    expect((await handlers.getDraftLine({ uuid: line.uuid }, owner)).line).toEqual(line);
  });
});

describe('the currency of a line written without one', () => {
  const withoutCurrency = (account: string): invoicingV1.DraftLineInput => {
    const { currency: _leftOut, ...line } = minimal(account);
    return line;
  };

  it('is the organization’s base currency on create and PUT; PATCH keeps the line’s', async () => {
    const context = await organization({ base_currency: 'EUR' });
    const account = randomUUID();

    const created = await create(context, withoutCurrency(account));
    expect(created.currency).toBe('EUR');
    expect((await handlers.getDraftLine({ uuid: created.uuid }, context)).line).toEqual(created);

    const line = await create(context, minimal(account, { currency: 'SEK', price: '10' }));
    const patched = await handlers.updateDraftLine(
      { uuid: line.uuid, replace: false, ...input({ price: '12' }) },
      context,
    );
    expect(patched.line).toEqual({ ...line, price: '12.00', version: 2 });
    const replaced = await handlers.updateDraftLine(
      { uuid: line.uuid, replace: true, ...input(withoutCurrency(account)) },
      context,
    );
    expect(replaced.line).toEqual({ ...line, currency: 'EUR', price: '0.00', version: 3 });
    // The audit names what the client sent, not the currency filled in for it.
    const replace = (await auditOf(context)).filter((row) => row.action === 'draft_invoice_line.replace');
    expect(replace).toEqual([
      {
        action: 'draft_invoice_line.replace',
        object_id: line.uuid,
        details: { fields: ['account', 'description', 'vat_type'] },
      },
    ]);
  });

  it('is asked of the accounts service only when a create or PUT leaves it out', async () => {
    // An organization the accounts service does not know: any question about it fails.
    const unknown = requestOf(randomUUID());
    const account = randomUUID();
    const line = await create(unknown, minimal(account, { currency: 'NOK' }));
    const patched = await handlers.updateDraftLine(
      { uuid: line.uuid, replace: false, ...input({ price: '3' }) },
      unknown,
    );
    expect(patched.line).toEqual({ ...line, price: '3.00', version: 2 });

    const refused = await failure(handlers.createDraftLine(input(withoutCurrency(account)), unknown));
    expect([refused.code, refused.message]).toEqual([
      StatusCode.NOT_FOUND,
      `No organization with id ${unknown.organizationId}.`,
    ]);
    const listed = await handlers.listDraftLines({}, unknown);
    expect(listed.lines).toEqual([patched.line]);
  });
});

describe('list', () => {
  it('pages the organization’s lines oldest first and filters by account', async () => {
    const context = await organization();
    const [acme, globex, initech] = [randomUUID(), randomUUID(), randomUUID()];
    const lines: invoicingV1.DraftLine[] = [];
    for (const [account, description] of [
      [acme, 'a1'],
      [globex, 'g1'],
      [acme, 'a2'],
      [initech, 'i1'],
      [acme, 'a3'],
    ] as const) {
      clock.advanceMs(1_000);
      lines.push(await create(context, minimal(account, { description })));
    }
    await create(await organization(), minimal(acme, { description: 'another organization' }));
    const names = (reply: invoicingV1.ListDraftLinesResponse) => [reply.count, reply.lines.map((l) => l.description)];

    expect(names(await handlers.listDraftLines({}, context))).toEqual([5, ['a1', 'g1', 'a2', 'i1', 'a3']]);
    const page2 = { page: 2, page_size: 2, ordering: '-created_date' };
    expect(names(await handlers.listDraftLines({ page: page2 }, context))).toEqual([5, ['a2', 'g1']]);
    const acmePage = { page: 1, page_size: 2, ordering: '' };
    expect(names(await handlers.listDraftLines({ page: acmePage, account: acme }, context))).toEqual([3, ['a1', 'a2']]);
    expect((await handlers.listDraftLines({}, context)).lines[0]).toEqual(lines[0]);

    const badFilter = await failure(handlers.listDraftLines({ account: 'acme' }, context));
    expect(badFilter.fieldViolations).toEqual([{ field: 'account', description: 'Enter a valid UUID.' }]);
  });
});

describe('update and delete', () => {
  it('PATCH changes only the fields sent and checks the merged line', async () => {
    const context = await organization();
    const line = await create(
      context,
      minimal(randomUUID(), { price: '100', quantity: '3', discount_percentage: '10' }),
    );
    clock.advanceMs(60_000);

    const conflict = await failure(
      handlers.updateDraftLine({ uuid: line.uuid, replace: false, ...input({ discount_fixed_total: '5' }) }, context),
    );
    expect(conflict.fieldViolations).toEqual([{ field: 'discount_fixed_total', description: ONLY_ONE_DISCOUNT }]);
    const overLine = await failure(
      handlers.updateDraftLine({ uuid: line.uuid, replace: false, ...input({ price: '-1' }) }, context),
    );
    expect(overLine.fieldViolations).toEqual([
      { field: 'discount_percentage', description: 'A discount cannot be given on a line with a negative price.' },
    ]);

    const switched = await handlers.updateDraftLine(
      {
        uuid: line.uuid,
        replace: false,
        line: { discount_fixed_total: '25' },
        present_fields: ['discount_percentage', 'discount_fixed_total'],
      },
      context,
    );
    expect(switched.line).toEqual({
      ...line,
      discount_percentage: undefined,
      discount_fixed_total: '25.00',
      last_modified_date: new Date(clock.now()),
      version: 2,
    });
    expect((await auditOf(context)).map((row) => [row.action, row.details])).toEqual([
      ['draft_invoice_line.create', { account: line.account }],
      ['draft_invoice_line.update', { fields: ['discount_percentage', 'discount_fixed_total'] }],
    ]);
    expect((await eventsOf(context)).map((event) => [event.subject, event.line])).toEqual([
      ['invoicing.draft_invoice_line.created', line],
      ['invoicing.draft_invoice_line.updated', switched.line],
    ]);
  });

  it('PUT needs the required fields and sets every field not sent back to its default', async () => {
    const context = await organization();
    const line = await create(
      context,
      minimal(randomUUID(), { price: '50', po_number: 'PO-1', collect_vat: false, custom_fields: { a: 1 } }),
    );
    const missing = await failure(
      handlers.updateDraftLine({ uuid: line.uuid, replace: true, ...input({ description: 'Only this' }) }, context),
    );
    expect(missing.fieldViolations).toEqual([
      { field: 'account', description: 'This field is required.' },
      { field: 'vat_type', description: 'This field is required.' },
    ]);

    const newAccount = randomUUID();
    const replaced = await handlers.updateDraftLine(
      { uuid: line.uuid, replace: true, ...input(minimal(newAccount, { currency: 'ISK', description: 'Moved' })) },
      context,
    );
    expect(replaced.line).toEqual({
      ...line,
      account: newAccount,
      description: 'Moved',
      currency: 'ISK',
      price: '0.00',
      po_number: '',
      collect_vat: true,
      custom_fields: {},
      version: 2,
    });
    expect((await auditOf(context)).at(-1)).toEqual({
      action: 'draft_invoice_line.replace',
      object_id: line.uuid,
      details: { fields: ['account', 'description', 'vat_type', 'currency'] },
    });
  });

  it('DELETE removes the line; the event carries its last state, one version on', async () => {
    const context = await organization();
    const line = await create(context, minimal(randomUUID(), { price: '12.5' }));
    expect(await handlers.deleteDraftLine({ uuid: line.uuid }, context)).toEqual({});
    expect((await failure(handlers.getDraftLine({ uuid: line.uuid }, context))).code).toBe(StatusCode.NOT_FOUND);
    expect((await failure(handlers.deleteDraftLine({ uuid: line.uuid }, context))).code).toBe(StatusCode.NOT_FOUND);
    expect((await eventsOf(context)).map((event) => [event.subject, event.line])).toEqual([
      ['invoicing.draft_invoice_line.created', line],
      ['invoicing.draft_invoice_line.deleted', { ...line, version: 2 }],
    ]);
    expect((await auditOf(context)).map((row) => row.action)).toEqual([
      'draft_invoice_line.create',
      'draft_invoice_line.delete',
    ]);
  });
});

describe('invoicing consumes lines once', () => {
  it('gives the pending lines by renewal flag and hides invoiced lines from the API', async () => {
    const context = await organization();
    const organizationId = context.organizationId!;
    const account = randomUUID();
    const now = await create(context, minimal(account, { description: 'now', price: '10' }));
    const renewal = await create(
      context,
      minimal(account, { description: 'renewal', include_in_next_renewal_invoice: true }),
    );
    await create(context, minimal(randomUUID(), { description: 'other account' }));
    const invoiceId = randomUUID();

    await inTransaction(orm, async (em) => {
      const forRenewal = await pendingDraftLines(em, organizationId, account, { forNextRenewal: true, lock: false });
      expect(forRenewal.map((row) => row.id)).toEqual([renewal.uuid]);
      const rows = await pendingDraftLines(em, organizationId, account, { forNextRenewal: false, lock: true });
      expect(rows.map((row) => row.id)).toEqual([now.uuid]);
      const scope = changeScope(em, 'invoicing', organizationId, context, clock.now());
      markDraftLinesInvoiced(scope, rows, invoiceId);
      expect(() => markDraftLinesInvoiced(scope, rows, randomUUID())).toThrow(
        `Draft invoice line ${now.uuid} is already invoiced.`,
      );
    });

    const [stored] = await orm.em
      .getConnection()
      .execute<{ invoice_id: string; invoiced_at: string; version: number }[]>(
        `select invoice_id, invoiced_at, version from draft_invoice_line where id = ?`,
        [now.uuid],
      );
    expect([stored!.invoice_id, new Date(stored!.invoiced_at), stored!.version]).toEqual([invoiceId, clock.now(), 2]);
    expect((await eventsOf(context)).map((event) => [event.subject, event.line]).slice(-1)).toEqual([
      ['invoicing.draft_invoice_line.invoiced', { ...now, version: 2 }],
    ]);
    for (const call of [
      () => handlers.getDraftLine({ uuid: now.uuid }, context),
      () => handlers.updateDraftLine({ uuid: now.uuid, replace: false, ...input({ description: 'late' }) }, context),
      () => handlers.deleteDraftLine({ uuid: now.uuid }, context),
    ]) {
      expect((await failure(call())).code).toBe(StatusCode.NOT_FOUND);
    }
    const listed = await handlers.listDraftLines({ account }, context);
    expect(listed.lines.map((line) => line.description)).toEqual(['renewal']);
    const again = await orm.em
      .fork()
      .transactional((em) => pendingDraftLines(em, organizationId, account, { forNextRenewal: false, lock: true }));
    expect(again).toEqual([]);
  });

  it('a second invoicing transaction waiting on the same lines finds none left', async () => {
    const context = await organization();
    const organizationId = context.organizationId!;
    const account = randomUUID();
    const line = await create(context, minimal(account, { price: '10' }));
    const options = { forNextRenewal: false, lock: true };
    let second: Promise<string[]> | undefined;

    await inTransaction(orm, async (em) => {
      const rows = await pendingDraftLines(em, organizationId, account, options);
      expect(rows.map((row) => row.id)).toEqual([line.uuid]);
      second = inTransaction(orm, async (other) =>
        (await pendingDraftLines(other, organizationId, account, options)).map((row) => row.id),
      );
      // The second transaction is blocked on the row lock before the first one commits.
      await waitFor(
        async () => {
          const [waiting] = await orm.em
            .getConnection()
            .execute<{ n: string }[]>(
              `select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like ?`,
              [`%${database.schema}%draft_invoice_line%`],
            );
          return Number(waiting!.n) > 0;
        },
        { description: 'the second transaction to wait for the row lock' },
      );
      markDraftLinesInvoiced(changeScope(em, 'invoicing', organizationId, context, clock.now()), rows, randomUUID());
    });
    expect(await second).toEqual([]);
  });
});
