import type { Logger } from '@billing/observability';
import type { BackgroundWorker } from '@billing/runtime';
import type pg from 'pg';
import { listenForWebhookChanges } from '../db/webhook-change-notices.js';
import type { EnabledWebhooks } from '../use-cases/webhooks/enabled-webhooks.js';

/** Pause before listening again after the connection failed. */
const RELISTEN_AFTER_MS = 1_000;

/**
 * Keeps the cache of enabled webhooks told of every webhook change, this process's and other
 * replicas': while the listening connection is up the cache may be used, otherwise it knows nothing
 * (and the consumers read the webhooks from the database, as without it). `heard` is called for
 * every change and whenever listening (re)starts, when changes may have gone unheard: the webhook
 * durables look for those another replica created (events/webhook-durables.ts).
 */
export function startWebhookChangeListener(
  pool: pg.Pool,
  cache: EnabledWebhooks,
  logger: Logger,
  heard: () => void = () => {},
): BackgroundWorker {
  let stopped = false;
  let current: { close(): void } | null = null;
  let timer: NodeJS.Timeout | null = null;

  const listen = async (): Promise<void> => {
    timer = null;
    if (stopped) return;
    try {
      const listener = await listenForWebhookChanges(pool, (organizationId) => {
        cache.invalidate(organizationId);
        heard();
      });
      if (stopped) {
        listener.close();
        return;
      }
      current = listener;
      cache.listeningStarted();
      heard();
      void listener.ended.then(() => {
        cache.listeningLost();
        current = null;
        if (!stopped) {
          logger.warn({ worker: 'webhook-change-listener' }, 'webhook change notifications lost; listening again');
          timer = setTimeout(listen, RELISTEN_AFTER_MS);
        }
      });
    } catch (error) {
      cache.listeningLost();
      logger.warn({ err: error, worker: 'webhook-change-listener' }, 'cannot listen for webhook changes; retrying');
      if (!stopped) timer = setTimeout(listen, RELISTEN_AFTER_MS);
    }
  };
  void listen();

  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      cache.listeningLost();
      current?.close();
    },
  };
}
