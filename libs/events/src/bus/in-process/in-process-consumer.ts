import type { EventsLogger } from '../../support/logger.js';
import type { DeliveredMessage, RunningConsumer } from '../event-bus.js';
import type { DurableState, PendingDelivery } from './durable-state.js';
import type { InProcessStream } from './in-process-stream.js';

/** One running puller on a durable: takes the next due message, hands it over, waits for the handler. */
export class InProcessConsumer implements RunningConsumer {
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly stream: InProcessStream,
    private readonly durable: DurableState,
    private readonly handler: (message: DeliveredMessage) => Promise<void>,
    private readonly logger: EventsLogger,
    private readonly onStopped: () => void,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stream.wakeup.notify();
    await this.loop;
    this.onStopped();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const next = this.durable.next(this.stream, Date.now());
      if ('delivery' in next) {
        await this.deliver(next.delivery);
        // Let timers and I/O run between messages, as a network consumer would.
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        await this.stream.wakeup.wait(next.idleMs);
      }
    }
  }

  private async deliver(delivery: PendingDelivery): Promise<void> {
    delivery.deliveries += 1;
    delivery.inFlight = true;
    delivery.dueAt = Date.now() + this.durable.ackWaitMs;
    const attempt = delivery.deliveries;
    let settled = false;
    // Only the first settlement of the current attempt counts; a stale ack after a redelivery is ignored.
    const settleOnce = (apply: () => void): Promise<void> => {
      if (!settled && delivery.deliveries === attempt) {
        settled = true;
        apply();
      }
      return Promise.resolve();
    };
    const message: DeliveredMessage = {
      messageId: delivery.message.messageId,
      subject: delivery.message.subject,
      data: delivery.message.data,
      headers: delivery.message.headers,
      deliveryCount: attempt,
      storedAt: new Date(delivery.message.storedAt),
      ack: () => settleOnce(() => this.durable.settle(delivery)),
      term: () => settleOnce(() => this.durable.settle(delivery)),
      nak: (delayMs = 0) =>
        settleOnce(() => {
          delivery.dueAt = Date.now() + delayMs;
          this.durable.release(delivery);
          this.stream.wakeup.notify();
        }),
    };
    try {
      await this.handler(message);
    } catch (error) {
      this.logger.warn({ err: error, subject: message.subject }, 'event handler failed; redelivering after ack wait');
    }
    if (!settled) {
      settled = true;
      this.durable.release(delivery);
    }
  }
}
