import { exportWorkerIntervalMs, type ServiceExports, serviceExports } from '@billing/exports';
import { createMailer, loadMailConfig, type MailConfig } from '@billing/mail';
import type { BackgroundWorker, ServiceDeps, ServiceModule } from '@billing/runtime';
import { accountsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import { noticeOfRenewal, startSubscriptionNoticeConsumer } from './events/subscription-notices.js';
import { startWebhookConsumers } from './events/webhook-consumers.js';
import { subscriptionSnapshotData } from './events/webhook-data.js';
import { webhookFeeds } from './events/webhook-feeds.js';
import { accountsWorkers } from './events/workers.js';
import { accountListExport } from './grpc/account-exports.js';
import { accountsService } from './grpc/accounts-service.js';
import { churnReasonService } from './grpc/churn-reason-service.js';
import { identityService } from './grpc/identity-service.js';
import { organizationDataService } from './grpc/organization-data-service.js';
import { readModelService } from './grpc/read-model-service.js';
import { selfServiceService } from './grpc/self-service-service.js';
import { webhookService } from './grpc/webhook-service.js';
import { HandedOverEvents } from './use-cases/handed-over-events.js';
import { queueSubscriptionNotice } from './use-cases/notifications/queue-subscription-notice.js';
import { EnabledWebhooks } from './use-cases/webhooks/enabled-webhooks.js';
import type { WebhooksDeps } from './use-cases/webhooks/webhooks-deps.js';
import { loadWebhooksConfig, type WebhooksConfig } from './webhooks-config.js';
import { startNoticeMailSender } from './workers/notice-mail-sender.js';
import { startWebhookChangeListener } from './workers/webhook-change-listener.js';
import { startWebhookDispatcher, type WebhookDispatcher } from './workers/webhook-dispatcher.js';

export interface AccountsModuleOptions {
  webhooks?: Partial<WebhooksConfig>;
  /** Where subscription notification e-mails go (default: SMTP_URL, MAIL_FROM, MAIL_OUTBOX_DIR). */
  mail?: MailConfig;
  /** Pause between passes of the notification mail sender (default 1000 ms). */
  mailIntervalMs?: number;
}

/**
 * The account list's export (docs/architecture.md "Exports"), one per deps: its gRPC service and
 * its worker share it, so a job asked for wakes the worker.
 */
const exportsByDeps = new WeakMap<ServiceDeps, ServiceExports>();
const exportsOf = (deps: ServiceDeps): ServiceExports => {
  let exports = exportsByDeps.get(deps);
  if (!exports) {
    exports = serviceExports('accounts', [accountListExport(deps)]);
    exportsByDeps.set(deps, exports);
  }
  return exports;
};

/**
 * The accounts service: organizations (and their test clocks), API tokens, churn reasons, accounts,
 * recipients, payment gateway accounts, members, imported ERP budgets and e-invoice field mappings,
 * the read model of accounts' subscriptions and draft lines, and the organizations' outbound
 * webhooks (docs/architecture.md "Webhooks").
 */
export function createAccountsModule(options: AccountsModuleOptions = {}): ServiceModule {
  // One dispatcher per started service (its ServiceDeps); the gRPC handlers and the event
  // consumers wake it when deliveries fall due.
  const dispatchers = new WeakMap<ServiceDeps, WebhookDispatcher>();
  // One cache of enabled webhooks per started service: its webhook changes (gRPC) and its
  // consumers share it; it is used only while the workers' listener hears every change.
  const caches = new WeakMap<ServiceDeps, EnabledWebhooks>();
  const cacheOf = (deps: ServiceDeps): EnabledWebhooks => {
    let cache = caches.get(deps);
    if (!cache) {
      cache = new EnabledWebhooks();
      caches.set(deps, cache);
    }
    return cache;
  };
  // One record of the hand-overs' committed inbox rows per started service: its ApplyEvents
  // fills it, its durable consumers skip the copies it names.
  const handOvers = new WeakMap<ServiceDeps, HandedOverEvents>();
  const handedOverOf = (deps: ServiceDeps): HandedOverEvents => {
    let handedOver = handOvers.get(deps);
    if (!handedOver) {
      handedOver = new HandedOverEvents();
      handOvers.set(deps, handedOver);
    }
    return handedOver;
  };
  const webhooksDeps = (deps: ServiceDeps): WebhooksDeps => ({
    orm: deps.orm,
    pool: deps.pool,
    clock: deps.clock,
    webhooks: { ...loadWebhooksConfig(), ...options.webhooks },
    wakeDispatcher: () => dispatchers.get(deps)?.wake(),
    renderSubscription: (context, snapshot) => subscriptionSnapshotData(deps, context, snapshot),
    mailRenewalNotice: async (em, notice, noticeId) => {
      await queueSubscriptionNotice(em, noticeOfRenewal(notice, noticeId), deps.clock.now());
    },
    enabledWebhooks: cacheOf(deps),
  });
  return {
    name: 'accounts',
    defaultGrpcPort: 50051,
    entities: accountsEntities,
    migrations,
    publishesEvents: true,
    checkConfig: (env) => {
      loadWebhooksConfig(env);
      loadMailConfig(env, 'accounts');
      exportWorkerIntervalMs('accounts', env);
    },
    grpcServices: (deps) => [
      accountsService(deps),
      identityService(deps),
      churnReasonService(deps),
      readModelService({ ...deps, handedOver: handedOverOf(deps) }, webhookFeeds(webhooksDeps(deps))),
      organizationDataService(deps),
      selfServiceService(deps),
      webhookService(webhooksDeps(deps)),
      exportsOf(deps).grpcService(deps),
    ],
    /**
     * The read models' consumers (subscriptions.subscription.changed, invoicing.draft_invoice_line.*,
     * invoicing.invoice.*; ReadModelService takes the same events straight from their producers),
     * the webhook dispatcher, the subscription notifications (their consumer and mail sender) and
     * the export worker.
     */
    workers: async (deps) => {
      const webhooks = webhooksDeps(deps);
      const dispatcher = startWebhookDispatcher(webhooks, deps.logger);
      dispatchers.set(deps, dispatcher);
      const mail = options.mail ?? loadMailConfig(process.env, 'accounts');
      const mailer = createMailer(mail, deps.clock);
      const started: BackgroundWorker[] = [
        dispatcher,
        startWebhookChangeListener(deps.pool, cacheOf(deps), deps.logger),
        startNoticeMailSender(deps, mailer, mail.from, options.mailIntervalMs ?? 1_000, deps.logger),
      ];
      try {
        started.push(...(await accountsWorkers(deps, handedOverOf(deps))));
        started.push(
          ...(await startWebhookConsumers({
            ...webhooks,
            logger: deps.logger,
            bus: deps.bus,
            handedOver: handedOverOf(deps),
          })),
        );
        started.push(...(await startSubscriptionNoticeConsumer({ ...deps, bus: deps.bus })));
        started.push(exportsOf(deps).worker(deps));
        return started;
      } catch (error) {
        for (const worker of started.reverse()) await worker.stop();
        throw error;
      }
    },
  };
}

export const accountsModule: ServiceModule = createAccountsModule();
