import type { TraceHeaders } from '../support/message-tracing.js';

export interface PublishRequest {
  subject: string;
  /** The event id: the bus stores a message id once within the duplicate window. */
  messageId: string;
  data: Uint8Array;
  /** W3C trace context of the publish (NATS headers traceparent, tracestate). */
  headers?: TraceHeaders | undefined;
  /**
   * The id of the message this one must follow: the bus stores it only if the last message it
   * stored in the stream had this id, and rejects it otherwise (a duplicate is recognised first).
   * Lets a publisher send a run of messages without waiting for each ack in between and still
   * never store a later one after an earlier one failed (JetStream: Nats-Expected-Last-Msg-Id).
   */
  previousMessageId?: string | undefined;
}

/** One delivery of a stored message to a durable consumer. Exactly one of ack/nak/term settles it. */
export interface DeliveredMessage {
  messageId: string;
  subject: string;
  data: Uint8Array;
  /** 1 on first delivery, then 2, 3, … on redeliveries. */
  deliveryCount: number;
  /**
   * When the bus stored the message, on its clock (JetStream: the server's; in process: this
   * process's). Another host's clock: compare with a margin.
   */
  storedAt: Date;
  /** The trace context the message was published with, when it had one. */
  headers?: TraceHeaders | undefined;
  /** Done: never deliver again to this durable. Resolves when the bus has recorded it. */
  ack(): Promise<void>;
  /** Not now: deliver again after `delayMs` (immediately when omitted). */
  nak(delayMs?: number): Promise<void>;
  /** Poison: never deliver again, without pretending it was processed. */
  term(): Promise<void>;
}

export interface ConsumeRequest {
  /** Stream name, e.g. `ACCOUNTS` (see streamNameFor). */
  stream: string;
  /** Durable consumer name ([A-Za-z0-9_-]): its position survives restarts and is shared by replicas. */
  durable: string;
  /** One subject filter, e.g. `accounts.account.*` (nats-server 2.9 allows one per consumer). */
  filterSubject: string;
  /**
   * Called for each delivery, one at a time per running consumer. A delivery that is neither
   * acked, nakked nor termed (including when the handler throws) comes back after `ackWaitMs`.
   */
  handler: (message: DeliveredMessage) => Promise<void>;
  /**
   * When set, a bus that fetches in batches (JetStream) hands over at once every message that
   * arrived while the previous ones were being handled (one, when they come slowly); each must be
   * settled as with `handler`. A bus that delivers one by one (in process) calls `handler`.
   * Batches run one after the other, except that the next may start once the handler calls
   * `admitNext` (JetStream's BatchPipeline): a handler calls it once the rest of its batch can no
   * longer be overtaken by the next one (the invoicing consumer: once it holds its number counter).
   */
  batchHandler?: (messages: readonly DeliveredMessage[], admitNext: () => void) => Promise<void>;
  /**
   * With `batchHandler`: messages asked for per pull (JetStream; default 500; the in-process bus
   * delivers one by one and ignores it), the most a batch holds. More suits a consumer that
   * acknowledges most of what it is sent unhandled (startConsumer's `ignore`), whose batches are
   * otherwise a fraction of a pull. The server sends a durable no more unacknowledged messages
   * than its max ack pending (nats-server's default, 1,000, shared by the replicas and counting
   * messages waiting for a delayed redelivery); a pull asking more ends short at its expiry. So
   * keep it within 1,000 for a handler that never calls `admitNext`, and within half of that for
   * one that does (two pulls' messages are then unacknowledged at once).
   */
  fetchSize?: number;
  /** Redeliver an unsettled message after this long (default 30 s). */
  ackWaitMs?: number;
  /**
   * Where a durable that this request creates starts: at the stream's first message (`first`, the
   * default), or after its last one (`new`: only messages stored from its creation on). A durable
   * that exists resumes where it stands either way.
   */
  deliverFrom?: 'first' | 'new';
  /** Stop delivering a message after this many attempts (default: unlimited). */
  maxDeliver?: number;
}

export interface RunningConsumer {
  /** Stops fetching and waits for the deliveries in progress (every batch started) to finish. */
  stop(): Promise<void>;
}

/**
 * At-least-once delivery between services: JetStream in deployments, in memory for a one-process
 * `npm start`. Both adapters pass the same contract tests.
 */
export interface EventBus {
  /** Creates the producer's stream (`ACCOUNTS` on `accounts.>`) if it does not exist. */
  ensureStream(producer: string): Promise<void>;
  /** Resolves only once the bus has durably stored the message (or recognised it as a duplicate). */
  publish(request: PublishRequest): Promise<void>;
  consume(request: ConsumeRequest): Promise<RunningConsumer>;
  /** Whether the durable consumer exists (was created by some consume, here or by another process). */
  durableExists(stream: string, durable: string): Promise<boolean>;
  close(): Promise<void>;
}

export const DEFAULT_ACK_WAIT_MS = 30_000;
