import type { JsMsg } from '@nats-io/jetstream';

/**
 * Holds plain acks until the event loop's next check phase and sends them together, so the acks of
 * all consumers on one connection that settled in the same turn go out in one socket write: nats.js
 * writes what was published within one microtask checkpoint, and each commit that ends a message's
 * handling resumes in a checkpoint of its own (a third of a busy consumer's socket writes were
 * single acks). An ack only tells the server not to redeliver; it is sent microseconds later.
 */
export class AckBatcher {
  private waiting: JsMsg[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  ack(message: JsMsg): void {
    this.waiting.push(message);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Sends what is waiting now (before a consumer stops or the connection closes). */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const messages = this.waiting;
    this.waiting = [];
    for (const message of messages) {
      try {
        message.ack();
      } catch {
        // The connection closed: the message comes back after its ack wait, and the consumer's
        // inbox makes the redelivery a no-op, as for any lost ack.
      }
    }
  }
}
