import type { TraceHeaders } from '../../support/message-tracing.js';
import type { PublishRequest } from '../event-bus.js';
import { Wakeup } from './wakeup.js';

export interface StoredMessage {
  sequence: number;
  subject: string;
  messageId: string;
  data: Uint8Array;
  headers?: TraceHeaders | undefined;
  /** When it was stored (ms since the epoch). */
  storedAt: number;
}

/** An append-only list of messages with JetStream's publisher dedupe by message id and expected last id. */
export class InProcessStream {
  readonly messages: StoredMessage[] = [];
  readonly wakeup = new Wakeup();
  /** message id → when it was stored; Map order is insertion order, so the oldest come first. */
  private readonly recentIds = new Map<string, number>();

  constructor(
    readonly name: string,
    private readonly duplicateWindowMs: number,
  ) {}

  append(request: PublishRequest, now: number): void {
    for (const [id, storedAt] of this.recentIds) {
      if (now - storedAt < this.duplicateWindowMs) break;
      this.recentIds.delete(id);
    }
    if (this.recentIds.has(request.messageId)) return;
    const last = this.messages.at(-1)?.messageId;
    if (request.previousMessageId !== undefined && request.previousMessageId !== last) {
      // As JetStream answers a wrong Nats-Expected-Last-Msg-Id.
      throw new Error(`wrong last msg ID: ${last ?? ''}`);
    }
    this.recentIds.set(request.messageId, now);
    this.messages.push({
      sequence: this.messages.length + 1,
      subject: request.subject,
      messageId: request.messageId,
      // Copied so a publisher reusing its buffer cannot change what was "stored".
      data: Uint8Array.from(request.data),
      storedAt: now,
      ...(request.headers ? { headers: { ...request.headers } } : {}),
    });
    this.wakeup.notify();
  }
}
