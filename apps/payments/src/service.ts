import { loadMailConfig, type MailConfig, mailTransport } from '@billing/mail';
import { accountsReadModel, type ReadModelSender, readModelHandOver } from '@billing/read-model-client';
import type { ServiceDeps, ServiceModule } from '@billing/runtime';
import { paymentsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import type { Directory, Invoicing } from './domain/directory.js';
import { ACCOUNTS_READ_MODEL_EVENT_TYPES } from './events/accounts-hand-over.js';
import { invoiceIssuedConsumerName, startInvoiceIssuedConsumer } from './events/invoice-issued-consumer.js';
import { gatewayFactory } from './gateways/gateway-factory.js';
import { accountsDirectory } from './grpc/accounts-directory.js';
import { invoicingClient } from './grpc/invoicing-client.js';
import { paymentsService } from './grpc/payments-service.js';
import { loadPaymentsConfig, type PaymentsConfig } from './payments-config.js';
import { Charger } from './use-cases/charging/charger.js';
import type { PaymentsDeps } from './use-cases/deps.js';
import type { PaymentMailSender } from './use-cases/mail/send-payment-mails.js';
import { startCardExpiryNotifier } from './workers/card-expiry-notifier.js';
import { startChargeRunner } from './workers/charge-runner.js';
import { startPaymentMailSender } from './workers/payment-mail-sender.js';

export interface PaymentsModuleOptions {
  config?: Partial<PaymentsConfig>;
  /** Where payment and card mails go (default: the SMTP_URL, MAIL_FROM, MAIL_OUTBOX_DIR environment). */
  mail?: MailConfig;
}

/**
 * The payments service. It owns the `payments` schema: payment cards and their registrations,
 * card invoices and their payment attempts (docs/api.md "Payments", docs/architecture.md
 * "Charging"). It consumes invoicing.invoice.issued and publishes payments.payment_card.* and
 * payments.payment.*.
 */
export function createPaymentsModule(options: PaymentsModuleOptions = {}): ServiceModule {
  const config = (): PaymentsConfig => ({ ...loadPaymentsConfig(), ...options.config });
  let shared: { deps: PaymentsDeps; charger: Charger; readModel: ReadModelSender } | null = null;
  const wiring = (deps: ServiceDeps) => {
    if (shared) return shared;
    const settings = config();
    const directory: Directory = accountsDirectory(settings.accountsAddress, settings.credentialsKey);
    const invoicing: Invoicing = invoicingClient(settings.invoicingAddress);
    const readModel = accountsReadModel(settings.accountsAddress);
    const payments: PaymentsDeps = {
      orm: deps.orm,
      clock: deps.clock,
      logger: deps.logger,
      directory,
      invoicing,
      gateways: gatewayFactory(settings),
      committedEvents: readModelHandOver(readModel, ACCOUNTS_READ_MODEL_EVENT_TYPES, deps.logger),
      ...(settings.crashAfterGatewayCall
        ? {
            afterGatewayCall: () => {
              deps.logger.fatal('PAYMENTS_TEST_CRASH_AFTER_GATEWAY_CALL: exiting before the outcome is committed');
              process.exit(86);
            },
          }
        : {}),
    };
    shared = { deps: payments, charger: new Charger(payments, settings.chargeConcurrency), readModel };
    return shared;
  };
  const paymentMailSender = (deps: ServiceDeps): PaymentMailSender => {
    const mail = options.mail ?? loadMailConfig(process.env, 'payments');
    return { transport: mailTransport(mail, deps.clock), from: mail.from };
  };
  return {
    name: 'payments',
    defaultGrpcPort: 50055,
    entities: paymentsEntities,
    migrations,
    publishesEvents: true,
    checkConfig: (env) => {
      loadPaymentsConfig(env);
      loadMailConfig(env, 'payments');
    },
    grpcServices: (deps) => {
      const { deps: payments, charger } = wiring(deps);
      return [paymentsService(payments, charger)];
    },
    workers: async (deps) => {
      const { deps: payments, charger, readModel } = wiring(deps);
      // Stopped in reverse order: the clients close last, after everything that uses them.
      const workers = [
        {
          stop: async () => {
            payments.directory.close();
            payments.invoicing.close();
            readModel.close();
            // A module started again (tests) wires itself anew, on its new database connection.
            shared = null;
          },
        },
        startChargeRunner(payments, charger, config().workerIntervalMs, deps.logger),
        startPaymentMailSender(payments, paymentMailSender(deps), config().workerIntervalMs, deps.logger),
        startCardExpiryNotifier(payments, config().workerIntervalMs, deps.logger),
        { stop: () => charger.idle() },
      ];
      if (!deps.bus) {
        deps.logger.warn(
          'no event bus configured: issued card invoices are charged only by the worker and the test clock',
        );
        return workers;
      }
      const schema = deps.orm.config.get('schema') ?? 'payments';
      const consumer = await startInvoiceIssuedConsumer(payments, charger, {
        bus: deps.bus,
        logger: deps.logger,
        consumer: invoiceIssuedConsumerName(schema),
      });
      return [...workers, consumer];
    },
  };
}

export const paymentsModule: ServiceModule = createPaymentsModule();
