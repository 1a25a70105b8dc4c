import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type AccountsModuleOptions,
  createAccountsModule,
  createApiToken,
  createOrganization,
  disableApiToken,
} from '@billing/accounts';
import { analyticsModule } from '@billing/analytics';
import { TestClock } from '@billing/clock';
import { decodeEnvelope, InboxMessage, JetStreamBus, OutboxMessage, streamNameFor } from '@billing/events';
import { createInvoicingModule } from '@billing/invoicing';
import { createLogger } from '@billing/observability';
import { createPaymentsModule } from '@billing/payments';
import {
  accountEventsV1,
  catalogEventsV1,
  type chargesV1,
  contractEventsV1,
  invoiceEventsV1,
  type invoicingV1,
  paymentEventsV1,
  subscriptionEventsV1,
} from '@billing/proto';
import { type RunningService, startService } from '@billing/runtime';
import { createSubscriptionsModule } from '@billing/subscriptions';
import { createTestSchema, startNatsServer, uniqueName, waitFor } from '@billing/testing';
import type { ServiceAddresses } from '../../src/clients/service-clients.js';
import { type RunningGateway, startGateway } from '../../src/start-gateway.js';
import { runAdminCli } from './admin-cli.js';
import { type ApiClient, apiClient } from './api-client.js';
import { type PaymentsProcess, startPaymentsProcess } from './payments-process.js';

export type { ApiClient, ApiResponse } from './api-client.js';

export interface TestOrganization {
  organizationId: string;
  apiUserId: string;
  token: string;
  api: ApiClient;
}

export interface AccountEvent {
  event_type: string;
  organization_id: string;
  aggregate_id: string;
  request_id: string;
  // biome-ignore lint/suspicious/noExplicitAny: the proto Account, read loosely by tests
  account: any;
}

/** An event of the subscriptions service (plan.*, plan_terms.*, contract.*, subscription.changed, charge.created) with its decoded payload. */
export interface CatalogEvent {
  event_type: string;
  organization_id: string;
  aggregate_type: string;
  aggregate_id: string;
  request_id: string;
  // biome-ignore lint/suspicious/noExplicitAny: the proto Plan / PlanTerms, read loosely by tests
  plan?: any;
  // biome-ignore lint/suspicious/noExplicitAny: the proto Plan / PlanTerms, read loosely by tests
  plan_terms?: any;
  // biome-ignore lint/suspicious/noExplicitAny: the proto Contract, read loosely by tests
  contract?: any;
  charge?: chargesV1.Charge;
  subscription_changed?: subscriptionEventsV1.SubscriptionChanged;
}

/** An event of the payments service with its decoded payload. */
export interface PaymentEvent {
  event_type: string;
  aggregate_id: string;
  /** When it happened on the organization's clock (ISO). */
  occurred_at: string;
  card?: paymentEventsV1.PaymentCardChanged['card'];
  attempt?: paymentEventsV1.PaymentAttemptChanged;
}

/** The gateway credentials key of test platforms (32 bytes, hex). */
export const TEST_CREDENTIALS_KEY = 'a1'.repeat(32);

export interface AuditRecord {
  organization_id: string;
  api_user_id: string | null;
  client_system: string | null;
  external_user: string | null;
  request_id: string | null;
  action: string;
  object_type: string;
  object_id: string;
}

export interface GatewayReplica {
  baseUrl: string;
  api(token: string): ApiClient;
  stop(): Promise<void>;
}

export interface TestPlatform {
  baseUrl: string;
  /** The platform's own NATS JetStream server. */
  natsUrl: string;
  /** Where invoicing and payments write their e-mails (.eml files) when no SMTP server is given. */
  mailOutbox: string;
  /** The invoicing service's database and schema, for tests that hold its locks to order a race. */
  invoicingDatabase: { databaseUrl: string; schema: string };
  /** The accounts service's database and schema, for tests that damage its data to provoke a fault. */
  accountsDatabase: { databaseUrl: string; schema: string };
  /** The gateway's database and schema (rate-limit counters, idempotency keys). */
  gatewayDatabase: { databaseUrl: string; schema: string };
  clock: TestClock;
  /**
   * Another gateway replica over the same services and the same gateway schema, as a second
   * process would be; `services` replaces addresses (a dead one makes that service unreachable).
   */
  startGatewayReplica(options?: { services?: Partial<ServiceAddresses> }): Promise<GatewayReplica>;
  createOrganization(settings?: {
    name?: string;
    country?: string;
    base_currency?: string;
    time_zone?: string;
    rate_limit_per_minute?: number;
    default_payment_terms?: number;
    /** Test mode: the organization's own clock starts at this ISO 8601 time. */
    test_clock_time?: string;
    /** Feature flags, e.g. ['kickback']. */
    features?: string[];
    /** The seller's details printed on invoices. */
    address?: string;
    zipcode?: string;
    city?: string;
    vat_number?: string;
  }): Promise<TestOrganization>;
  createToken(organizationId: string): Promise<{ apiUserId: string; token: string; api: ApiClient }>;
  /**
   * Runs the built admin command line (`npm run admin -- <args>`) against this platform's accounts
   * schema and returns its JSON output; a failing command throws.
   */
  admin(...args: string[]): Promise<unknown>;
  disableToken(apiUserId: string): Promise<void>;
  /** Everything committed so far, once the relay has published it and the bus has delivered it. */
  accountEvents(): Promise<AccountEvent[]>;
  /** The accounts service's audit log for one organization, oldest first. */
  auditLog(organizationId: string): Promise<AuditRecord[]>;
  /** The subscriptions service's events so far (relayed and delivered), in publish order. */
  catalogEvents(): Promise<CatalogEvent[]>;
  /** The subscriptions service's audit log for one organization, oldest first. */
  subscriptionsAuditLog(organizationId: string): Promise<AuditRecord[]>;
  /** The payments service's audit log for one organization, oldest first (payments in this process). */
  paymentsAuditLog(organizationId: string): Promise<AuditRecord[]>;
  /** charge.created events of one organization (what invoicing receives), in publish order. */
  charges(organizationId: string): Promise<chargesV1.Charge[]>;
  /** invoicing.invoice.* events of one organization (type and invoice), in publish order. */
  invoiceEvents(organizationId: string): Promise<Array<{ event_type: string; invoice: invoicingV1.Invoice }>>;
  /** payments.* events of one organization (type and decoded payload), in publish order. */
  paymentEvents(organizationId: string): Promise<PaymentEvent[]>;
  /** The payments process, when the platform was started with `paymentsProcess`. */
  paymentsProcess: PaymentsProcess | null;
  /** The key the platform's payments service opens gateway credentials with (GATEWAY_CREDENTIALS_KEY). */
  credentialsKey: string;
  /** subscription.changed events of one organization, in publish order. */
  subscriptionChanges(organizationId: string): Promise<subscriptionEventsV1.SubscriptionChanged[]>;
  /**
   * Once every event committed so far by accounts, subscriptions and invoicing has been handled by
   * the analytics service's consumers (activities, MRR): what a test waits for before reading them.
   */
  analyticsCaughtUp(): Promise<void>;
  /**
   * Once every organization event accounts committed so far (organization.created / .updated: base
   * currency, exchange rates) has been handled by the subscriptions service's consumer.
   */
  subscriptionsKnowOrganizations(): Promise<void>;
  /** The request id each account event was caused by, keyed by event type and aggregate. */
  eventRequestIds(): Promise<Array<{ event_type: string; aggregate_id: string; request_id: string }>>;
  stop(): Promise<void>;
}

/**
 * The real thing, in one process: the accounts service (own throwaway schema, real migrations) on a
 * gRPC port, the gateway in front of it over gRPC, the outbox relayed to NATS JetStream, and a
 * durable consumer reading the account events back. Only the clock is a test clock. Invoice and
 * payment e-mails go to a throwaway folder, or to `smtpUrl` when given.
 */
export async function startTestPlatform(
  options: {
    smtpUrl?: string;
    /** The Peppol access point e-invoices are delivered to (a local server of the test). */
    einvoiceAccessPoint?: { url: string; token: string };
    cardgwAApiUrl?: string;
    /** Run payments as its own process (built main.js), restartable: the crash test. */
    paymentsProcess?: boolean;
    webhooks?: AccountsModuleOptions['webhooks'];
  } = {},
): Promise<TestPlatform> {
  const clock = new TestClock('2026-01-15T09:00:00Z');
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const accountsSchema = await createTestSchema('accounts');
  const subscriptionsSchema = await createTestSchema('subscriptions');
  const invoicingSchema = await createTestSchema('invoicing');
  const gatewaySchema = await createTestSchema('gateway');
  const analyticsSchema = await createTestSchema('analytics');
  const paymentsSchema = await createTestSchema('payments');
  // A private JetStream server per platform: durable consumers start on an empty history, never on
  // the events other test files left on a shared server (a charge of an organization this platform
  // does not know would be retried, then set aside, holding the consumer up meanwhile).
  const nats = await startNatsServer();
  const bus = await JetStreamBus.connect({ servers: nats.url, name: 'contract-tests' });
  // Webhook deliveries: polled every 100 ms besides being woken; the rest as configured.
  // Subscription notification e-mails go where invoice e-mails go.
  const mailOutbox = await mkdtemp(path.join(tmpdir(), 'invoice-mail-'));
  const mail = { from: 'billing@example.invalid', outboxDir: mailOutbox, smtpUrl: options.smtpUrl };
  const accountsModule = createAccountsModule({
    webhooks: { pollIntervalMs: 100, ...options.webhooks },
    mail,
    mailIntervalMs: 100,
  });
  const accounts = await startService(accountsModule, {
    databaseUrl: accountsSchema.databaseUrl,
    schema: accountsSchema.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger,
    bus,
    migrateOnStart: true,
    relay: { pollIntervalMs: 50 },
  });
  // Subscriptions hands its committed changes to accounts' read model (account reads embed them).
  const subscriptionsModule = createSubscriptionsModule({ config: { accountsAddress: accounts.address } });
  const subscriptions = await startService(subscriptionsModule, {
    databaseUrl: subscriptionsSchema.databaseUrl,
    schema: subscriptionsSchema.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger,
    bus,
    migrateOnStart: true,
    relay: { pollIntervalMs: 50 },
  });
  // Invoicing asks the accounts service about buyers and sellers; mails go to a throwaway folder.
  const invoicingModule = createInvoicingModule({
    config: {
      accountsAddress: accounts.address,
      workerIntervalMs: 100,
      reminderIntervalMs: 200,
      accessPoint: options.einvoiceAccessPoint ?? null,
    },
    mail,
  });
  const invoicing = await startService(invoicingModule, {
    databaseUrl: invoicingSchema.databaseUrl,
    schema: invoicingSchema.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger,
    bus,
    migrateOnStart: true,
    relay: { pollIntervalMs: 50 },
  });
  // Payments asks accounts (organizations, credentials) and invoicing (settlements) over gRPC.
  const paymentsModule = createPaymentsModule({
    mail: { from: 'billing@example.invalid', outboxDir: mailOutbox, smtpUrl: options.smtpUrl },
    config: {
      accountsAddress: accounts.address,
      invoicingAddress: invoicing.address,
      credentialsKey: TEST_CREDENTIALS_KEY,
      workerIntervalMs: 100,
      ...(options.cardgwAApiUrl ? { cardgwAApiUrl: options.cardgwAApiUrl } : {}),
    },
  });
  const paymentsChild = options.paymentsProcess
    ? await startPaymentsProcess({
        databaseUrl: paymentsSchema.databaseUrl,
        schema: paymentsSchema.schema,
        natsUrl: nats.url,
        env: {
          ACCOUNTS_ADDRESS: accounts.address,
          INVOICING_ADDRESS: invoicing.address,
          GATEWAY_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
          PAYMENTS_WORKER_INTERVAL_MS: '100',
          MAIL_OUTBOX_DIR: mailOutbox,
          ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl, MAIL_FROM: 'billing@example.invalid' } : {}),
          ...(options.cardgwAApiUrl ? { CARDGW_A_API_URL: options.cardgwAApiUrl } : {}),
        },
      })
    : null;
  const payments =
    paymentsChild ??
    (await startService(paymentsModule, {
      databaseUrl: paymentsSchema.databaseUrl,
      schema: paymentsSchema.schema,
      grpcHost: '127.0.0.1',
      grpcPort: 0,
      clock,
      logger,
      bus,
      migrateOnStart: true,
      relay: { pollIntervalMs: 50 },
    }));
  // Analytics reads the producers' streams (activities, MRR) and publishes activity.created.
  const analytics = await startService(analyticsModule, {
    databaseUrl: analyticsSchema.databaseUrl,
    schema: analyticsSchema.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger,
    bus,
    migrateOnStart: true,
    relay: { pollIntervalMs: 50 },
  });
  const serviceAddresses: ServiceAddresses = {
    accounts: accounts.address,
    subscriptions: subscriptions.address,
    invoicing: invoicing.address,
    analytics: analytics.address,
    payments: payments.address,
  };
  const startGatewayOn = (services: ServiceAddresses) =>
    startGateway({
      host: '127.0.0.1',
      port: 0,
      services,
      databaseUrl: gatewaySchema.databaseUrl,
      schema: gatewaySchema.schema,
      clock,
      logger,
    });
  const gateway = await startGatewayOn(serviceAddresses);
  const replicas = new Set<RunningGateway>();

  const organizations = new Set<string>();
  const received = new Map<string, AccountEvent>();
  const consumer = await bus.consume({
    stream: streamNameFor('accounts'),
    durable: uniqueName('contract'),
    filterSubject: 'accounts.account.*',
    handler: async (message) => {
      const envelope = decodeEnvelope(message.data);
      if (organizations.has(envelope.organization_id)) {
        received.set(envelope.event_id, {
          event_type: envelope.event_type,
          organization_id: envelope.organization_id,
          aggregate_id: envelope.aggregate_id,
          request_id: envelope.request_id,
          account: accountEventsV1.AccountChanged.decode(envelope.payload).account!,
        });
      }
      await message.ack();
    },
  });
  const invoicesSeen = new Set<string>();
  const invoiceReceived = new Map<
    string,
    { event_type: string; organization_id: string; invoice: invoicingV1.Invoice }
  >();
  const invoiceConsumer = await bus.consume({
    stream: streamNameFor('invoicing'),
    durable: uniqueName('contract-invoices'),
    // Every invoicing event is counted (the drain compares with the whole outbox); invoice ones are kept.
    filterSubject: 'invoicing.>',
    handler: async (message) => {
      const envelope = decodeEnvelope(message.data);
      const invoice =
        envelope.payload_type === 'billing.events.v1.InvoiceChanged'
          ? invoiceEventsV1.InvoiceChanged.decode(envelope.payload).invoice
          : undefined;
      invoicesSeen.add(envelope.event_id);
      if (invoice)
        invoiceReceived.set(envelope.event_id, {
          event_type: envelope.event_type,
          organization_id: envelope.organization_id,
          invoice,
        });
      await message.ack();
    },
  });
  const catalogReceived = new Map<string, CatalogEvent>();
  const catalogConsumer = await bus.consume({
    stream: streamNameFor('subscriptions'),
    durable: uniqueName('contract-catalog'),
    filterSubject: 'subscriptions.>',
    handler: async (message) => {
      const envelope = decodeEnvelope(message.data);
      if (organizations.has(envelope.organization_id)) {
        const event: CatalogEvent = {
          event_type: envelope.event_type,
          organization_id: envelope.organization_id,
          aggregate_type: envelope.aggregate_type,
          aggregate_id: envelope.aggregate_id,
          request_id: envelope.request_id,
        };
        if (envelope.payload_type === 'billing.events.v1.PlanChanged') {
          event.plan = catalogEventsV1.PlanChanged.decode(envelope.payload).plan;
        } else if (envelope.payload_type === 'billing.events.v1.PlanTermsChanged') {
          event.plan_terms = catalogEventsV1.PlanTermsChanged.decode(envelope.payload).plan_terms;
        } else if (envelope.payload_type === 'billing.events.v1.ContractChanged') {
          event.contract = contractEventsV1.ContractChanged.decode(envelope.payload).contract;
        } else if (envelope.payload_type === 'billing.events.v1.ChargeCreated') {
          event.charge = subscriptionEventsV1.ChargeCreated.decode(envelope.payload).charge;
        } else if (envelope.payload_type === 'billing.events.v1.SubscriptionChanged') {
          event.subscription_changed = subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload);
        }
        catalogReceived.set(envelope.event_id, event);
      }
      await message.ack();
    },
  });
  const paymentsSeen = new Set<string>();
  const paymentReceived = new Map<string, PaymentEvent & { organization_id: string }>();
  const paymentConsumer = paymentsChild
    ? null
    : await bus.consume({
        stream: streamNameFor('payments'),
        durable: uniqueName('contract-payments'),
        filterSubject: 'payments.>',
        handler: async (message) => {
          const envelope = decodeEnvelope(message.data);
          paymentsSeen.add(envelope.event_id);
          const event: PaymentEvent & { organization_id: string } = {
            event_type: envelope.event_type,
            aggregate_id: envelope.aggregate_id,
            occurred_at: envelope.occurred_at!.toISOString(),
            organization_id: envelope.organization_id,
          };
          if (envelope.payload_type === 'billing.events.v1.PaymentCardChanged') {
            event.card = paymentEventsV1.PaymentCardChanged.decode(envelope.payload).card;
          } else if (envelope.payload_type === 'billing.events.v1.PaymentAttemptChanged') {
            event.attempt = paymentEventsV1.PaymentAttemptChanged.decode(envelope.payload);
          }
          paymentReceived.set(envelope.event_id, event);
          await message.ack();
        },
      });
  const deps = { orm: accounts.orm, clock };
  /** Everything committed so far, once the relay has published it and the bus delivered it. */
  const accountEvents = async (): Promise<AccountEvent[]> => {
    const relayed = await accounts.relay!.drainOnce();
    if (relayed.error) throw relayed.error;
    // Organization events (organization.*) are not account events.
    const committed = await accounts.orm.em.fork().count(OutboxMessage, { subject: { $like: 'accounts.account.%' } });
    await waitFor(() => received.size >= committed, { timeoutMs: 30_000, description: `${committed} account events` });
    return [...received.values()];
  };

  /** Every outbox row of `service` is relayed and the consumer has seen at least that many. */
  const drained = async (service: RunningService, seen: () => number, what: string) => {
    const relayed = await service.relay!.drainOnce();
    if (relayed.error) throw relayed.error;
    const committed = await service.orm.em.fork().count(OutboxMessage, {});
    await waitFor(() => seen() >= committed, { timeoutMs: 30_000, description: `${committed} ${what}` });
  };
  const auditOf = (service: RunningService, organizationId: string) =>
    service.orm.em
      .getConnection()
      .execute<AuditRecord[]>(
        'select organization_id, api_user_id, client_system, external_user, request_id, action, object_type, object_id from audit_log where organization_id = ? order by occurred_at, action',
        [organizationId],
      );

  return {
    baseUrl: gateway.url,
    natsUrl: nats.url,
    mailOutbox,
    invoicingDatabase: { databaseUrl: invoicingSchema.databaseUrl, schema: invoicingSchema.schema },
    accountsDatabase: { databaseUrl: accountsSchema.databaseUrl, schema: accountsSchema.schema },
    gatewayDatabase: { databaseUrl: gatewaySchema.databaseUrl, schema: gatewaySchema.schema },
    clock,
    async startGatewayReplica({ services = {} } = {}) {
      const replica = await startGatewayOn({ ...serviceAddresses, ...services });
      replicas.add(replica);
      return {
        baseUrl: replica.url,
        api: (token) => apiClient(replica.url, token),
        async stop() {
          if (replicas.delete(replica)) await replica.stop();
        },
      };
    },
    async createOrganization({ test_clock_time, ...settings } = {}) {
      const { organization, token } = await createOrganization(deps, {
        name: 'Test Organization',
        ...settings,
        ...(test_clock_time !== undefined ? { test_clock: { time: new Date(test_clock_time) } } : {}),
      });
      organizations.add(organization.id);
      return {
        organizationId: organization.id,
        apiUserId: token.id,
        token: token.token,
        api: apiClient(gateway.url, token.token),
      };
    },
    async createToken(organizationId) {
      const token = await createApiToken(deps, organizationId);
      return { apiUserId: token.id, token: token.token, api: apiClient(gateway.url, token.token) };
    },
    admin: (...args) => runAdminCli(args, accountsSchema, { GATEWAY_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY }),
    credentialsKey: TEST_CREDENTIALS_KEY,
    paymentsProcess: paymentsChild,
    async paymentEvents(organizationId) {
      if (paymentsChild) throw new Error('payments runs as a process: its events are not collected');
      await drained(payments as RunningService, () => paymentsSeen.size, 'payments events');
      return [...paymentReceived.values()].flatMap(({ organization_id, ...event }) =>
        organization_id === organizationId ? [event] : [],
      );
    },
    async disableToken(apiUserId) {
      await disableApiToken(deps, apiUserId);
    },
    accountEvents,
    async auditLog(organizationId) {
      return auditOf(accounts, organizationId);
    },
    async catalogEvents() {
      await drained(subscriptions, () => catalogReceived.size, 'subscriptions events');
      return [...catalogReceived.values()];
    },
    async subscriptionsAuditLog(organizationId) {
      return auditOf(subscriptions, organizationId);
    },
    async paymentsAuditLog(organizationId) {
      if (paymentsChild) throw new Error('payments runs as a process: its audit log is not read here');
      return auditOf(payments as RunningService, organizationId);
    },
    async charges(organizationId) {
      await drained(subscriptions, () => catalogReceived.size, 'subscriptions events');
      return [...catalogReceived.values()].flatMap((event) =>
        event.organization_id === organizationId && event.charge ? [event.charge] : [],
      );
    },
    async invoiceEvents(organizationId) {
      await drained(invoicing, () => invoicesSeen.size, 'invoicing events');
      return [...invoiceReceived.values()].flatMap((event) =>
        event.organization_id === organizationId ? [{ event_type: event.event_type, invoice: event.invoice }] : [],
      );
    },
    async subscriptionChanges(organizationId) {
      await drained(subscriptions, () => catalogReceived.size, 'subscriptions events');
      return [...catalogReceived.values()].flatMap((event) =>
        event.organization_id === organizationId && event.subscription_changed ? [event.subscription_changed] : [],
      );
    },
    async analyticsCaughtUp() {
      const feeds: Array<[RunningService, string, string]> = [
        [accounts, 'accounts', `${analyticsSchema.schema}-accounts`],
        [subscriptions, 'subscriptions', `${analyticsSchema.schema}-subscriptions`],
        [invoicing, 'invoicing', `${analyticsSchema.schema}-invoices`],
        // payment_made; a payments process (the crash test) relays on its own.
        ...(paymentsChild
          ? []
          : ([[payments as RunningService, 'payments', `${analyticsSchema.schema}-payments`]] as Array<
              [RunningService, string, string]
            >)),
      ];
      for (const [producer, service, durable] of feeds) {
        const relayed = await producer.relay!.drainOnce();
        if (relayed.error) throw relayed.error;
        // Every event relayed so far delivered and acknowledged (acknowledged after its commit). Not
        // the inbox's rows: analytics acknowledges the events it makes nothing of without one.
        await waitFor(
          async () => {
            const lag = await bus.durableLag(streamNameFor(service), durable);
            return lag.pending === 0 && lag.ackPending === 0;
          },
          { timeoutMs: 30_000, description: `analytics (${durable}) has handled every ${service} event relayed` },
        );
      }
    },
    async subscriptionsKnowOrganizations() {
      const relayed = await accounts.relay!.drainOnce();
      if (relayed.error) throw relayed.error;
      const committed = await accounts.orm.em
        .fork()
        .count(OutboxMessage, { subject: { $like: 'accounts.organization.%' } });
      const consumer = `${subscriptionsSchema.schema}-organizations`;
      await waitFor(async () => (await subscriptions.orm.em.fork().count(InboxMessage, { consumer })) >= committed, {
        timeoutMs: 30_000,
        description: `subscriptions has handled ${committed} organization events`,
      });
    },
    async eventRequestIds() {
      return (await accountEvents()).map(({ event_type, aggregate_id, request_id }) => ({
        event_type,
        aggregate_id,
        request_id,
      }));
    },
    async stop() {
      for (const replica of replicas) await replica.stop();
      await gateway.stop();
      await consumer.stop();
      await catalogConsumer.stop();
      await invoiceConsumer.stop();
      await paymentConsumer?.stop();
      await payments.stop();
      await analytics.stop();
      await invoicing.stop();
      await rm(mailOutbox, { recursive: true, force: true });
      await subscriptions.stop();
      await accounts.stop();
      await bus.close();
      await nats.dispose();
      await invoicingSchema.drop();
      await subscriptionsSchema.drop();
      await accountsSchema.drop();
      await gatewaySchema.drop();
      await paymentsSchema.drop();
      await analyticsSchema.drop();
    },
  };
}
