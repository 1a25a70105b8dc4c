import { type Clock, systemClock } from '@billing/clock';
import { Gauge, metricsRegistry } from '@billing/observability';
import type { MikroORM } from '@mikro-orm/postgresql';
import { OutboxMessage } from '../outbox/outbox-message.entity.js';
import type { EventsLogger } from '../support/logger.js';
import { collectWithin } from './collect-within.js';

export interface OutboxMetricsSource {
  /** The producing service: the `service` label. */
  service: string;
  orm: MikroORM;
  clock?: Clock;
  logger: EventsLogger;
}

const sources = new Set<OutboxMetricsSource>();

/** Per-label sums: the all-in-one runner (and tests) may run the same service twice in one process. */
async function collectEach(
  gauge: Gauge<'service'>,
  read: (source: OutboxMetricsSource) => Promise<number>,
  combine: (a: number, b: number) => number,
): Promise<void> {
  const values = await Promise.all(
    [...sources].map(async (source) => {
      const value = await collectWithin(
        () => read(source),
        (error) => source.logger.warn({ err: error, service: source.service }, 'outbox metrics not collected'),
      );
      return [source.service, value] as const;
    }),
  );
  gauge.reset();
  const byService = new Map<string, number>();
  for (const [service, value] of values) {
    if (value === undefined) continue;
    const previous = byService.get(service);
    byService.set(service, previous === undefined ? value : combine(previous, value));
  }
  for (const [service, value] of byService) gauge.set({ service }, value);
}

/** Rows committed to the outbox and not yet acknowledged by the bus (read at each scrape). */
export const outboxPendingMessages = new Gauge({
  name: 'outbox_pending_messages',
  help: 'Outbox rows not yet published to NATS, by producing service.',
  labelNames: ['service'] as const,
  registers: [metricsRegistry],
  async collect() {
    await collectEach(
      this,
      (source) => source.orm.em.fork().count(OutboxMessage, { publishedAt: null }),
      (a, b) => a + b,
    );
  },
});

/**
 * The relay's lag: how old the oldest unpublished row is (0 with none). Its age counts from the
 * event's occurred-at on the service's clock; an event of an organization on a test clock ahead of
 * the real one counts as 0 rather than as negative.
 */
export const outboxOldestPendingAgeSeconds = new Gauge({
  name: 'outbox_oldest_pending_age_seconds',
  help: 'Age in seconds of the oldest outbox row not yet published (the relay lag), by producing service.',
  labelNames: ['service'] as const,
  registers: [metricsRegistry],
  async collect() {
    await collectEach(
      this,
      async (source) => {
        const oldest = await source.orm.em
          .fork()
          .findOne(
            OutboxMessage,
            { publishedAt: null },
            { orderBy: { position: 'asc' }, fields: ['createdAt'], disableIdentityMap: true },
          );
        if (!oldest) return 0;
        const now = (source.clock ?? systemClock).now().getTime();
        return Math.max(0, (now - oldest.createdAt.getTime()) / 1_000);
      },
      Math.max,
    );
  },
});

/** Reports `source`'s outbox in the two gauges until the returned function is called. */
export function watchOutbox(source: OutboxMetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}
