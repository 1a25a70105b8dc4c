import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

/**
 * The channel on which every change of a webhook row is announced, with its organization's id as
 * the payload: the replicas' caches of enabled webhooks (use-cases/webhooks/enabled-webhooks.ts)
 * drop that organization when they hear it. Organization ids are unique across schemas, so test
 * schemas sharing a database only drop each other's entries for nothing.
 */
export const WEBHOOKS_CHANGED_CHANNEL = 'accounts_webhooks_changed';

/**
 * In the transaction that changes (creates, updates or deletes) one of the organization's webhook
 * rows: Postgres sends the notification when that transaction commits, never when it rolls back.
 * Every writer of webhook rows must call it.
 */
export async function notifyWebhooksChanged(em: EntityManager, organizationId: string): Promise<void> {
  await em.execute('select pg_notify(?, ?)', [WEBHOOKS_CHANGED_CHANNEL, organizationId]);
}

/** A connection of the pool that hears the changes until it is released. */
export interface WebhookChangeListener {
  /** Resolves when the connection failed or was closed (after `close`). */
  ended: Promise<void>;
  close(): void;
}

/**
 * Listens for webhook changes on a connection of its own (taken from the pool and kept): resolves
 * once LISTEN is in place, so that every change committed from then on is heard.
 */
export async function listenForWebhookChanges(
  pool: pg.Pool,
  onChange: (organizationId: string) => void,
): Promise<WebhookChangeListener> {
  const client = await pool.connect();
  let endedResolve!: () => void;
  const ended = new Promise<void>((resolve) => {
    endedResolve = resolve;
  });
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.off('notification', onNotification);
    client.off('error', onError);
    client.off('end', onEnd);
    // A failed connection is destroyed rather than given back to the pool.
    client.release(error ?? true);
    endedResolve();
  };
  const onNotification = (message: pg.Notification) => {
    if (message.channel === WEBHOOKS_CHANGED_CHANNEL && message.payload) onChange(message.payload);
  };
  const onError = (error: Error) => release(error);
  const onEnd = () => release(new Error('listening connection ended'));
  client.on('notification', onNotification);
  client.on('error', onError);
  client.on('end', onEnd);
  try {
    await client.query(`listen ${WEBHOOKS_CHANGED_CHANNEL}`);
  } catch (error) {
    release(error as Error);
    throw error;
  }
  return { ended, close: () => release() };
}
