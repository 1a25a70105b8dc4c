import { exportWorkerIntervalMs, serviceExports } from '@billing/exports';
import { createMailer, loadMailConfig, type MailConfig } from '@billing/mail';
import { type BackgroundWorker, onePerService, type ServiceDeps, type ServiceModule } from '@billing/runtime';
import { accountsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import { findEventsOfEnabledWebhooks } from './db/webhook-store.js';
import { readModelSchema } from './events/read-model-feeds.js';
import { noticeOfRenewal, startSubscriptionNoticeConsumer } from './events/subscription-notices.js';
import {
  type WebhookConsumerStarter,
  webhookConsumerName,
  webhookConsumerStarter,
} from './events/webhook-consumers.js';
import { subscriptionSnapshotData } from './events/webhook-data.js';
import { WebhookDurables } from './events/webhook-durables.js';
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
 * The account list's export (docs/architecture.md "Exports"), one per started service: its gRPC
 * service and its worker share it, so a job asked for wakes the worker.
 */
const exportsOf = onePerService((deps) => serviceExports('accounts', [accountListExport(deps)]));

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
  const cacheOf = onePerService(() => new EnabledWebhooks());
  // One record of the hand-overs' committed inbox rows per started service: its ApplyEvents
  // fills it, its durable consumers skip the copies it names.
  const handedOverOf = onePerService(() => new HandedOverEvents());
  // The webhooks' durable consumers of a started service (none without an event bus): its webhook
  // changes open them (gRPC), its workers resume them at start and stop them.
  const durablesOf = onePerService((deps): WebhookDurables | null => {
    const { bus } = deps;
    if (!bus) return null;
    const schema = readModelSchema(deps.orm);
    let starter: WebhookConsumerStarter | undefined;
    return new WebhookDurables({
      bus,
      logger: deps.logger,
      start: (mapping, deliverFrom) => {
        starter ??= webhookConsumerStarter({
          ...webhooksDeps(deps),
          logger: deps.logger,
          bus,
          handedOver: handedOverOf(deps),
        });
        return starter(mapping, deliverFrom);
      },
      durableName: (mapping) => webhookConsumerName(schema, mapping),
    });
  });
  const webhooksDeps = (deps: ServiceDeps): WebhooksDeps => {
    const durables = durablesOf(deps);
    return {
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
      ...(durables ? { webhookEventConsumers: durables } : {}),
    };
  };
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
        startWebhookChangeListener(deps.pool, cacheOf(deps), deps.logger, () => durablesOf(deps)?.discover()),
        startNoticeMailSender(deps, mailer, mail.from, options.mailIntervalMs ?? 1_000, deps.logger),
      ];
      try {
        started.push(...(await accountsWorkers(deps, handedOverOf(deps))));
        const durables = durablesOf(deps);
        if (durables) {
          started.push(durables);
          await durables.resume(await findEventsOfEnabledWebhooks(deps.orm.em.fork()));
        } else {
          deps.logger.warn('no event bus configured: no webhook deliveries are made from events');
        }
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
