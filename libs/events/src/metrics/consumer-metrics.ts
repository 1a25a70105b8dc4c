import { Gauge, metricsRegistry } from '@billing/observability';
import type { ConsumerLag } from '../bus/jetstream/jetstream-bus.js';
import type { EventsLogger } from '../support/logger.js';
import { collectWithin } from './collect-within.js';

/** Whatever can say how far its durables are behind (JetStreamBus). */
export interface ConsumerLagSource {
  consumerLag(): Promise<ConsumerLag[]>;
}

const sources = new Map<ConsumerLagSource, EventsLogger>();

let lastScrape: Promise<ConsumerLag[]> | undefined;

/** One round of consumer info requests per scrape, shared by both gauges. */
function currentLag(): Promise<ConsumerLag[]> {
  if (!lastScrape) {
    lastScrape = Promise.all(
      [...sources].map(async ([source, logger]) => {
        const lag = await collectWithin(
          () => source.consumerLag(),
          (error) => logger.warn({ err: error }, 'consumer lag not collected'),
        );
        return lag ?? [];
      }),
    ).then((lists) => lists.flat());
    const done = () => {
      lastScrape = undefined;
    };
    lastScrape.then(done, done);
  }
  return lastScrape;
}

async function collectLag(gauge: Gauge<'stream' | 'durable'>, pick: (lag: ConsumerLag) => number): Promise<void> {
  const lags = await currentLag();
  gauge.reset();
  // A durable is shared by every replica and consumed once per process: the server's count, not a sum.
  for (const lag of lags) gauge.set({ stream: lag.stream, durable: lag.durable }, pick(lag));
}

export const consumerPendingMessages = new Gauge({
  name: 'nats_consumer_pending_messages',
  help: "Messages in the stream not yet delivered to the durable consumer (JetStream's num_pending), by stream and durable.",
  labelNames: ['stream', 'durable'] as const,
  registers: [metricsRegistry],
  async collect() {
    await collectLag(this, (lag) => lag.pending);
  },
});

export const consumerAckPendingMessages = new Gauge({
  name: 'nats_consumer_ack_pending_messages',
  help: "Messages delivered to the durable consumer and not yet acknowledged (JetStream's num_ack_pending), by stream and durable.",
  labelNames: ['stream', 'durable'] as const,
  registers: [metricsRegistry],
  async collect() {
    await collectLag(this, (lag) => lag.ackPending);
  },
});

/** Reports the lag of `source`'s durables in the two gauges until the returned function is called. */
export function watchConsumerLag(source: ConsumerLagSource, logger: EventsLogger): () => void {
  sources.set(source, logger);
  return () => sources.delete(source);
}
