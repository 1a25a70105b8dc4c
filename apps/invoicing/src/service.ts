import { serviceExports } from '@billing/exports';
import { loadMailConfig, type MailConfig } from '@billing/mail';
import { accountsReadModel, type ReadModelSender, readModelHandOver } from '@billing/read-model-client';
import { onePerService, type ServiceDeps, type ServiceModule } from '@billing/runtime';
import { invoicingEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import type { Directory } from './domain/directory.js';
import { type AccessPoint, httpAccessPoint } from './einvoice/access-point.js';
import { ACCOUNTS_READ_MODEL_EVENT_TYPES } from './events/accounts-hand-over.js';
import { chargeConsumerName, startChargeConsumer } from './events/charge-consumer.js';
import { HandOverTracker } from './events/hand-over-tracker.js';
import { accountsDirectory } from './grpc/accounts-directory.js';
import { invoiceListExport, vatExport } from './grpc/invoice-exports.js';
import { invoicingService } from './grpc/invoicing-service.js';
import { type InvoicingConfig, loadInvoicingConfig } from './invoicing-config.js';
import { createInvoiceMailer } from './mail/invoice-mailer.js';
import type { InvoicingDeps } from './use-cases/deps.js';
import { startEinvoiceSender } from './workers/einvoice-sender.js';
import { startGroupedInvoiceIssuer } from './workers/grouped-invoice-issuer.js';
import { startInvoiceMailSender } from './workers/invoice-mail-sender.js';
import { startReadModelBackfill } from './workers/read-model-backfill.js';
import { startReminderSender } from './workers/reminder-sender.js';

export interface InvoicingModuleOptions {
  config?: Partial<InvoicingConfig>;
  mail?: MailConfig;
}

/**
 * The invoicing service. It owns the `invoicing` schema: invoices and credit notes made from the
 * subscription engine's charges (consumed from subscriptions.charge.created), their numbers, VAT,
 * PDFs and e-mails, and draft invoice lines. See docs/invoicing.md.
 */
export function createInvoicingModule(options: InvoicingModuleOptions = {}): ServiceModule {
  let directory: Directory | null = null;
  let readModel: ReadModelSender | null = null;
  const handOvers = new HandOverTracker();
  const config = (): InvoicingConfig => ({ ...loadInvoicingConfig(), ...options.config });
  const depsOf = (deps: ServiceDeps): InvoicingDeps => {
    directory ??= accountsDirectory(config().accountsAddress);
    readModel ??= accountsReadModel(config().accountsAddress);
    return {
      orm: deps.orm,
      clock: deps.clock,
      directory,
      committedEvents: readModelHandOver(readModel, ACCOUNTS_READ_MODEL_EVENT_TYPES, deps.logger),
      handOvers,
    };
  };
  // One access point client for the gRPC service (the test clock's advance) and the sender.
  let accessPoint: AccessPoint | null | undefined;
  const accessPointOf = (): AccessPoint | null => {
    if (accessPoint === undefined) {
      const configured = config().accessPoint;
      accessPoint = configured ? httpAccessPoint(configured) : null;
    }
    return accessPoint;
  };
  // One per deps: its gRPC service and its worker share it, so a job asked for wakes the worker.
  const exports = onePerService((deps) =>
    serviceExports('invoicing', [invoiceListExport(depsOf(deps)), vatExport(depsOf(deps))]),
  );
  return {
    name: 'invoicing',
    defaultGrpcPort: 50053,
    entities: invoicingEntities,
    migrations,
    publishesEvents: true,
    checkConfig: (env) => {
      loadInvoicingConfig(env);
      loadMailConfig(env, 'invoicing');
    },
    grpcServices: (deps) => [
      invoicingService(depsOf(deps), { accessPoint: accessPointOf(), logger: deps.logger }),
      exports(deps).grpcService(deps),
    ],
    workers: async (deps) => {
      const invoicing = depsOf(deps);
      const interval = config().workerIntervalMs;
      const mailer = createInvoiceMailer(options.mail ?? loadMailConfig(), deps.clock);
      // Stopped in reverse order: the accounts clients close last, after everything that uses them.
      const workers = [
        {
          stop: async () => {
            directory?.close();
            readModel?.close();
          },
        },
        startGroupedInvoiceIssuer(invoicing, interval, deps.logger),
        startInvoiceMailSender(invoicing, mailer, interval, deps.logger),
        startReminderSender(invoicing, config().reminderIntervalMs, deps.logger),
        exports(deps).worker(deps, interval),
        startReadModelBackfill(invoicing, interval, deps.logger),
      ];
      const einvoices = accessPointOf();
      if (einvoices) workers.push(startEinvoiceSender(invoicing, einvoices, interval, deps.logger));
      // Most installations have no e-invoicing customers: said at info, not as a warning on every start.
      else
        deps.logger.info('no e-invoice access point configured (EINVOICE_ACCESS_POINT_URL): e-invoices stay pending');
      if (!deps.bus) {
        deps.logger.warn('no event bus configured: charges are not invoiced');
        return workers;
      }
      const schema = deps.orm.config.get('schema') ?? 'invoicing';
      const consumers = [];
      // One after the other: the first creates the durable the others pull from.
      for (let n = 0; n < config().chargeConsumers; n++)
        consumers.push(
          await startChargeConsumer(invoicing, {
            bus: deps.bus,
            logger: deps.logger,
            consumer: chargeConsumerName(schema),
          }),
        );
      return [...workers, ...consumers];
    },
  };
}

export const invoicingModule: ServiceModule = createInvoicingModule();
