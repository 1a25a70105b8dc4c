import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DueRenewalNotice } from '../../db/renewal-notice-store.js';
import type { WebhooksConfig } from '../../webhooks-config.js';
import type { AccountsDeps } from '../deps.js';
import type { EnabledWebhooks } from './enabled-webhooks.js';

/** What the webhook use cases need besides the accounts database and clock. */
export interface WebhooksDeps extends AccountsDeps {
  webhooks: WebhooksConfig;
  /** Tells this process's dispatcher that deliveries may have fallen due (others poll). */
  wakeDispatcher: () => void;
  /** A stored subscription snapshot (the read model's) as its REST representation (events/). */
  renderSubscription: (context: RequestContext, snapshot: Uint8Array) => Promise<unknown>;
  /**
   * Queues the renewal's e-mail to the recipients of subscription notifications (events/
   * subscription-notices), in the notice's transaction.
   */
  mailRenewalNotice: (em: EntityManager, notice: DueRenewalNotice, noticeId: string) => Promise<void>;
  /**
   * This process's knowledge of the organizations' enabled webhooks, shared by everything of one
   * started service (told of changes, filled by the reads of the deliveries' path); without it,
   * every event no webhook takes still goes through a transaction and its inbox row.
   */
  enabledWebhooks?: EnabledWebhooks;
  /**
   * Makes the events behind these public events reach this service's webhook consumers from now
   * on (events/webhook-durables.ts); a webhook change calls it before it commits, for the events
   * its enabled webhook takes. Absent without an event bus (no event becomes a delivery then).
   */
  webhookEventConsumers?: { openFor(names: readonly string[], timeLimitMs?: number): Promise<void> };
}
