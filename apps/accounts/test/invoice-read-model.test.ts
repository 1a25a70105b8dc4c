/**
 * The invoice read model (account_invoice) against a real, migrated schema, fed by both delivery
 * paths: ReadModelService.ApplyEvents over gRPC and the durable JetStream consumer (on a throwaway
 * producer stream, under this schema's consumer name); and the announcements and the delete rule
 * built on it (docs/architecture.md "Invoices and account deletion").
 */
import { randomUUID } from 'node:crypto';
import { StatusCode } from '@billing/errors';
import { type EventEnvelope, encodeEnvelope, InboxMessage, JetStreamBus, subjectFor } from '@billing/events';
import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import { createLogger, type RequestContext } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import { type RunningService, startService } from '@billing/runtime';
import { createTestSchema, TestClock, type TestSchema, testNatsUrl, uniqueName, waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceChangesConsumerName, startInvoiceChangesConsumer } from '../src/events/invoice-changes-consumer.js';
import { accountsModule } from '../src/service.js';
import { createOrganization } from '../src/use-cases/organizations.js';
import { type InvoiceEventInput, invoiceChanged } from './support/invoice-events.js';

const clock = new TestClock('2026-01-15T09:00:00Z');
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
const invoicingProducer = uniqueName('invoicing_t');
let database: TestSchema;
let service: RunningService;
let bus: JetStreamBus;
let stopConsumer: () => Promise<void>;
let readModel: GrpcClient<typeof accountsV1.ReadModelServiceService>;
let accounts: GrpcClient<typeof accountsV1.AccountsServiceService>;

beforeAll(async () => {
  database = await createTestSchema('accounts');
  service = await startService(accountsModule, {
    databaseUrl: database.databaseUrl,
    schema: database.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger,
    bus: null,
    migrateOnStart: true,
  });
  bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'accounts-invoice-read-model-test' });
  const consumer = await startInvoiceChangesConsumer({
    orm: service.orm,
    bus,
    clock,
    logger,
    retryDelayMs: () => 200,
    consumer: invoiceChangesConsumerName(database.schema),
    producer: invoicingProducer,
  });
  stopConsumer = () => consumer.stop();
  readModel = createGrpcClient(accountsV1.ReadModelServiceClient, service.address);
  accounts = createGrpcClient(accountsV1.AccountsServiceClient, service.address);
});

afterAll(async () => {
  readModel?.close();
  accounts?.close();
  await stopConsumer?.();
  await bus?.close();
  await service?.stop();
  await database?.drop();
});

async function organization() {
  const { organization } = await createOrganization({ orm: service.orm, clock }, { name: 'Invoice read model' });
  const context: RequestContext = { requestId: randomUUID(), organizationId: organization.id };
  return {
    context,
    invoice: (input: Omit<InvoiceEventInput, 'organizationId'>) =>
      invoiceChanged({ organizationId: organization.id, ...input }),
  };
}

async function newAccount(context: RequestContext, code: string): Promise<accountsV1.Account> {
  const account = {
    code,
    legal_address: 'Vesterbrogade 1',
    legal_zipcode: '1620',
    legal_city: 'København V',
    legal_country: 'DK',
  };
  const reply = await accounts.call('createAccount', { account, present_fields: Object.keys(account) }, { context });
  return reply.account!;
}

const apply = (context: RequestContext, ...events: EventEnvelope[]) =>
  readModel.call('applyEvents', { envelopes: events.map((event) => Buffer.from(encodeEnvelope(event))) }, { context });

const codesWithBalance = async (context: RequestContext, balance: string) =>
  (await accounts.call('listAccountUuids', { filter: { balance } }, { context })).uuids;

const firstDelete = {
  existing_invoices: [],
  absent_invoices: [],
  invoiced_charges: [],
  uninvoiced_charges: [],
  last_round: false,
};

describe('account_invoice fed by invoice events', () => {
  it('keeps the state of the greatest version, whichever path and order the events come by', async () => {
    const { context, invoice } = await organization();
    const acme = await newAccount(context, 'acme');
    const id = randomUUID();
    const issued = invoice({
      invoice: id,
      account: acme.uuid,
      eventType: 'issued',
      status: 'open',
      balance: '125.00',
      version: 1,
    });
    const paid = invoice({
      invoice: id,
      account: acme.uuid,
      eventType: 'paid',
      status: 'paid',
      balance: '0.00',
      version: 2,
    });

    // The direct hand-over of the payment arrives first; the stream then brings the issue, late.
    expect(await apply(context, paid)).toEqual({ applied: 1 });
    await bus.publish({
      subject: subjectFor(invoicingProducer, issued.event_type),
      messageId: issued.event_id,
      data: encodeEnvelope(issued),
    });
    const consumer = invoiceChangesConsumerName(database.schema);
    await waitFor(
      async () => (await service.orm.em.fork().count(InboxMessage, { messageId: issued.event_id, consumer })) === 1,
      { timeoutMs: 10_000, description: 'the issue handled by the durable consumer' },
    );

    expect(await codesWithBalance(context, '0')).toEqual([acme.uuid]);
    expect(await codesWithBalance(context, '125')).toEqual([]);
    // The same event again by either path is applied once.
    expect(await apply(context, paid, issued)).toEqual({ applied: 0 });
  });

  it('refuses an event it cannot use, naming it', async () => {
    const { context, invoice } = await organization();
    const acme = await newAccount(context, 'acme');
    const good = invoice({
      invoice: randomUUID(),
      account: acme.uuid,
      eventType: 'issued',
      status: 'open',
      balance: '1.00',
      version: 1,
    });
    const versionless = invoice({
      invoice: randomUUID(),
      account: acme.uuid,
      eventType: 'issued',
      status: 'open',
      balance: '1.00',
      version: 0,
    });

    await expect(apply(context, good, versionless)).rejects.toMatchObject({
      code: StatusCode.INVALID_ARGUMENT,
      fieldViolations: [
        {
          field: 'envelopes',
          description: expect.stringMatching(/^envelopes\[1\]: Unusable invoice .*version is missing$/),
        },
      ],
    });
  });
});

describe('announced invoices and the delete rule', () => {
  it('an announcement for an account that does not exist is NOT_FOUND', async () => {
    const { context } = await organization();
    await expect(
      readModel.call('announceInvoices', { account: randomUUID(), invoices: [randomUUID()] }, { context }),
    ).rejects.toMatchObject({ code: StatusCode.NOT_FOUND });
  });

  it("several accounts' invoices are announced in one call, and none when one account does not exist", async () => {
    const { context } = await organization();
    const acme = await newAccount(context, 'acme');
    const beta = await newAccount(context, 'beta');
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await expect(
      readModel.call(
        'announceAccountsInvoices',
        {
          announcements: [
            { account: acme.uuid, invoices: [a] },
            { account: randomUUID(), invoices: [b] },
          ],
        },
        { context },
      ),
    ).rejects.toMatchObject({ code: StatusCode.NOT_FOUND });
    // Nothing of the refused call was recorded: acme can be deleted without asking about `a`.
    expect(await accounts.call('deleteAccount', { code: 'acme', ...firstDelete }, { context })).toEqual({
      deleted: true,
      unconfirmed_invoices: [],
      unconfirmed_charges: [],
    });
    const carl = await newAccount(context, 'carl');
    await readModel.call(
      'announceAccountsInvoices',
      {
        announcements: [
          { account: beta.uuid, invoices: [b] },
          { account: carl.uuid, invoices: [c] },
        ],
      },
      { context },
    );
    for (const [code, id] of [
      ['beta', b],
      ['carl', c],
    ] as const) {
      expect(await accounts.call('deleteAccount', { code, ...firstDelete }, { context })).toEqual({
        deleted: false,
        unconfirmed_invoices: [id],
        unconfirmed_charges: [],
      });
    }
  });

  it("reads the organization's accounts by uuid with their recipients in one call, leaving out others", async () => {
    const { context } = await organization();
    const acme = await newAccount(context, 'acme');
    const beta = await newAccount(context, 'beta');
    await accounts.call(
      'createRecipient',
      {
        recipient: { account: acme.uuid, name: 'Ann', email: 'ann@acme.test', receive_invoice: true },
        present_fields: ['account', 'name', 'email', 'receive_invoice'],
      },
      { context },
    );
    const other = await organization();
    const elsewhere = await newAccount(other.context, 'acme');
    const { accounts: found } = await accounts.call(
      'getAccountsByUuid',
      { uuids: [acme.uuid, beta.uuid, elsewhere.uuid, 'not-a-uuid', randomUUID()] },
      { context },
    );
    expect(
      found
        .map((account) => ({
          code: account.code,
          recipients: account.recipients.map((r) => [r.email, r.receive_invoice]),
          country: account.legal_country,
        }))
        .sort((x, y) => x.code.localeCompare(y.code)),
    ).toEqual([
      { code: 'acme', recipients: [['ann@acme.test', true]], country: 'DK' },
      { code: 'beta', recipients: [], country: 'DK' },
    ]);
  });

  it('a delete asks about announced invoices, then deletes once invoicing says they do not exist', async () => {
    const { context } = await organization();
    const acme = await newAccount(context, 'acme');
    const [first, second] = [randomUUID(), randomUUID()].sort() as [string, string];
    await readModel.call('announceInvoices', { account: acme.uuid, invoices: [first, second] }, { context });

    // Announced invoices are not open: they change no balance.
    expect(await codesWithBalance(context, '0')).toEqual([acme.uuid]);
    expect(await accounts.call('deleteAccount', { code: 'acme', ...firstDelete }, { context })).toEqual({
      deleted: false,
      unconfirmed_invoices: [first, second],
      unconfirmed_charges: [],
    });
    const answer = { existing_invoices: [], absent_invoices: [first, second] };
    expect(await accounts.call('deleteAccount', { code: 'acme', ...firstDelete, ...answer }, { context })).toEqual({
      deleted: true,
      unconfirmed_invoices: [],
      unconfirmed_charges: [],
    });
    await expect(accounts.call('getAccount', { code: 'acme' }, { context })).rejects.toMatchObject({
      code: StatusCode.NOT_FOUND,
    });
  });

  it('refuses when invoicing says one exists, when its state has arrived, and on the last round', async () => {
    const refusal = {
      code: StatusCode.FAILED_PRECONDITION,
      reason: 'ACCOUNT_HAS_INVOICES',
      message: 'An account with invoices cannot be deleted.',
    };
    const { context, invoice } = await organization();
    const acme = await newAccount(context, 'acme');
    const id = randomUUID();
    await readModel.call('announceInvoices', { account: acme.uuid, invoices: [id] }, { context });

    const exists = { existing_invoices: [id], absent_invoices: [] };
    await expect(
      accounts.call('deleteAccount', { code: 'acme', ...firstDelete, ...exists }, { context }),
    ).rejects.toMatchObject(refusal);
    await expect(
      accounts.call('deleteAccount', { code: 'acme', ...firstDelete, last_round: true }, { context }),
    ).rejects.toMatchObject(refusal);
    await apply(
      context,
      invoice({ invoice: id, account: acme.uuid, eventType: 'issued', status: 'open', balance: '5.00', version: 1 }),
    );
    await expect(accounts.call('deleteAccount', { code: 'acme', ...firstDelete }, { context })).rejects.toMatchObject(
      refusal,
    );
    // Nothing forgets an invoice whose state arrived, whatever the caller claims.
    const claimsAbsent = { existing_invoices: [], absent_invoices: [id] };
    await expect(
      accounts.call('deleteAccount', { code: 'acme', ...firstDelete, ...claimsAbsent }, { context }),
    ).rejects.toMatchObject(refusal);
    expect(await codesWithBalance(context, '5')).toEqual([acme.uuid]);
  });
});
