import { subjectMatches } from '../subject-filter.js';
import type { InProcessStream, StoredMessage } from './in-process-stream.js';

export interface PendingDelivery {
  message: StoredMessage;
  deliveries: number;
  /** When it may be delivered (again): after a nak delay or the ack wait. */
  dueAt: number;
  /** Handed to a handler that has not returned yet. */
  inFlight: boolean;
}

export type NextDelivery = { delivery: PendingDelivery } | { idleMs: number | undefined };

/**
 * The position of one durable consumer in a stream: how far new messages have been handed out, and
 * which delivered messages still wait for an ack. It lives as long as the bus, so a consumer that
 * stops and starts again resumes where it was, like a JetStream durable.
 */
export class DurableState {
  private readonly pending = new Map<number, PendingDelivery>();

  /** `nextNewIndex`: the stream's first message not handed out yet (its length: only messages stored from now on). */
  constructor(
    readonly filterSubject: string,
    readonly ackWaitMs: number,
    readonly maxDeliver: number,
    private nextNewIndex = 0,
  ) {}

  /** Due redeliveries first (oldest first), then the next new matching message. */
  next(stream: InProcessStream, now: number): NextDelivery {
    let earliestDue: number | undefined;
    let due: PendingDelivery | undefined;
    for (const delivery of this.pending.values()) {
      if (delivery.inFlight) continue;
      if (delivery.dueAt <= now) {
        if (!due || delivery.message.sequence < due.message.sequence) due = delivery;
      } else if (earliestDue === undefined || delivery.dueAt < earliestDue) {
        earliestDue = delivery.dueAt;
      }
    }
    if (due) return { delivery: due };
    while (this.nextNewIndex < stream.messages.length) {
      const message = stream.messages[this.nextNewIndex++]!;
      if (!subjectMatches(this.filterSubject, message.subject)) continue;
      const delivery: PendingDelivery = { message, deliveries: 0, dueAt: now, inFlight: false };
      this.pending.set(message.sequence, delivery);
      return { delivery };
    }
    return { idleMs: earliestDue === undefined ? undefined : earliestDue - now };
  }

  settle(delivery: PendingDelivery): void {
    this.pending.delete(delivery.message.sequence);
  }

  /** After an unsettled or nakked attempt: give up once maxDeliver attempts were made. */
  release(delivery: PendingDelivery): void {
    delivery.inFlight = false;
    if (delivery.deliveries >= this.maxDeliver) this.settle(delivery);
  }
}
