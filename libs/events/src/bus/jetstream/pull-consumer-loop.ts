import { type Consumer, JetStreamApiCodes, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { InterruptibleSleep } from '../../support/interruptible-sleep.js';
import type { EventsLogger } from '../../support/logger.js';
import type { TraceHeaders } from '../../support/message-tracing.js';
import type { ConsumeRequest, DeliveredMessage, RunningConsumer } from '../event-bus.js';
import type { AckBatcher } from './ack-batcher.js';
import { BatchPipeline } from './batch-pipeline.js';
import { isApiError, isConsumerMissing, isPullUnanswered } from './jetstream-errors.js';

const BATCH_SIZE = 10;
/**
 * With a batch handler: more in flight, so that what arrives during one batch makes the next, and
 * a batch's fixed costs (its transaction, its calls to other services, the organization's locks)
 * are shared by more events. 100 → 500 in a 30,000-subscription billing run: 356 → 384 invoices/s
 * (invoicing 450 → 600 a second once the scheduler was done), at the price of a longer wait per
 * event (activities 0.25 → 1.6 s after their invoice, p50); a batch of 500 takes 1–2 s there, far
 * inside the 30 s ack wait.
 */
const BATCHED_FETCH_SIZE = 500;
/**
 * How long a pull waits for messages. nats.js asks the server for a heartbeat every half of it and
 * ends the pull with "heartbeats missed" once two checks in a row saw nothing. At 1 s that margin
 * was half a second: a process whose event loop or NATS server stalled that long (a busy test run,
 * a full machine) had its pull ended under it, and the messages the server was sending it
 * meanwhile were dropped by the client, each then waiting out the ack wait (30 s). At 5 s a pull
 * survives a 2.5 s stall. Messages are handled as they arrive either way, and stop() ends the pull
 * at once: a longer pull only means fewer idle round trips.
 */
const FETCH_EXPIRES_MS = 5_000;
const MAX_BACKOFF_MS = 5_000;
/**
 * How long JetStream must keep answering that the durable does not exist before it is made again:
 * a server still recovering its state may say so for a moment about one it then finds.
 */
const MISSING_CONFIRM_MS = 3_000;

/**
 * Fetches batches from a durable pull consumer and hands messages to the handler one by one. Any
 * failure (NATS restarting, consumer info unavailable) is logged and retried with backoff, so the
 * loop outlives broker restarts.
 */
export class PullConsumerLoop implements RunningConsumer {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private currentBatch: { stop(): void } | undefined;
  private readonly backoff = new InterruptibleSleep();
  private readonly batches = new BatchPipeline<JsMsg>((messages, admitNext) => this.deliverBatch(messages, admitNext));

  constructor(
    private readonly js: JetStreamClient,
    private readonly request: ConsumeRequest,
    private readonly logger: EventsLogger,
    private readonly acks: AckBatcher,
    private readonly onStopped: () => void,
    /**
     * Makes the durable again when it is gone while consumed (NATS lost its state, or someone
     * deleted it): after `lastSeen`, the stream sequence of the last message this loop received
     * (JetStream delivers in stream order, so the ones before went to some replica), or from the
     * stream's first message when there is none or the stream no longer holds what follows it.
     * Resolves to where it started, or null when the durable existed after all.
     */
    private readonly remake: (lastSeen: number | undefined) => Promise<number | 'first' | null>,
  ) {}

  /** The stream sequence of the last message received. */
  private lastSeen: number | undefined;

  get stream(): string {
    return this.request.stream;
  }

  get durable(): string {
    return this.request.durable;
  }

  start(): void {
    this.loop = this.run();
  }

  /**
   * After a reconnect the pending pull request died with the old connection; the client would only
   * notice after a few seconds, so the loop drops it and pulls again at once.
   */
  restartFetch(): void {
    this.currentBatch?.stop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.currentBatch?.stop();
    this.backoff.wake();
    await this.loop;
    await this.batches.drained();
    this.acks.flush();
    this.onStopped();
  }

  private async run(): Promise<void> {
    let consumer: Consumer | undefined;
    /** Since when JetStream has answered that the durable does not exist. */
    let missingSince: number | undefined;
    let failures = 0;
    while (!this.stopped) {
      try {
        if (missingSince !== undefined && performance.now() - missingSince >= MISSING_CONFIRM_MS) {
          const from = await this.remake(this.lastSeen);
          missingSince = undefined;
          if (from !== null) {
            this.logger.warn(
              { stream: this.request.stream, durable: this.request.durable, from },
              'the durable was gone; made it again',
            );
          }
        }
        if (!consumer) {
          consumer = await this.js.consumers.get(this.request.stream, this.request.durable);
          missingSince = undefined;
        }
        const batched = this.request.batchHandler !== undefined;
        const batch = await consumer.fetch({
          max_messages: batched ? (this.request.fetchSize ?? BATCHED_FETCH_SIZE) : BATCH_SIZE,
          expires: FETCH_EXPIRES_MS,
        });
        this.currentBatch = batch;
        for await (const message of batch) {
          this.lastSeen = Math.max(this.lastSeen ?? 0, message.seq);
          // Hand messages fetched during stop() straight back instead of waiting out the ack wait.
          if (this.stopped) message.nak();
          else if (!batched) await this.deliver(message);
          // What arrives while a batch runs waits for the next one. A batch starts on the next turn,
          // so the messages of the same read join the first one (started at once, a fetch of 100
          // became a batch of 1 and then one of 99).
          else this.batches.push(message);
        }
        failures = 0;
      } catch (error) {
        if (this.stopped) break;
        failures += 1;
        // Keep the consumer handle across broker restarts (a fresh info request sent while disconnected
        // would wait out the API timeout); look it up again when the durable may be gone: the
        // server said so, or a pull went unanswered (a pull to a durable that no longer exists gets
        // no answer: no responders, or its heartbeats are missed). Only the lookup's own "not found"
        // counts towards making it again.
        if (isApiError(error, JetStreamApiCodes.ConsumerNotFound)) {
          consumer = undefined;
          missingSince ??= performance.now();
        } else {
          missingSince = undefined;
          if (isConsumerMissing(error) || isPullUnanswered(error)) consumer = undefined;
        }
        this.logger.warn(
          { err: error, stream: this.request.stream, durable: this.request.durable },
          'JetStream fetch failed; retrying',
        );
        await this.backoff.sleep(Math.min(MAX_BACKOFF_MS, 100 * 2 ** failures));
      } finally {
        this.currentBatch = undefined;
        // The next pull once the last batch admitted the next one (BatchPipeline), also when this
        // pull failed midway.
        await this.batches.admitted();
      }
    }
  }

  private async deliverBatch(messages: JsMsg[], admitNext: () => void): Promise<void> {
    try {
      await this.request.batchHandler!(
        messages.map((message) => delivered(message, this.acks)),
        admitNext,
      );
    } catch (error) {
      this.logger.warn({ err: error, count: messages.length }, 'event handler failed; redelivering after ack wait');
    }
  }

  private async deliver(message: JsMsg): Promise<void> {
    try {
      await this.request.handler(delivered(message, this.acks));
    } catch (error) {
      this.logger.warn({ err: error, subject: message.subject }, 'event handler failed; redelivering after ack wait');
    }
  }
}

function delivered(message: JsMsg, acks: AckBatcher): DeliveredMessage {
  return {
    messageId: message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`,
    subject: message.subject,
    data: message.data,
    headers: traceHeaders(message),
    deliveryCount: message.info.deliveryCount,
    storedAt: message.time,
    ack: async () => {
      // A plain ack, not ackAck: waiting for the server's confirmation cost a request per message
      // (a round trip, a timer and an Error nats.js builds for every settled request), and an ack
      // that gets lost only brings a redelivery, which the consumer's inbox turns into a no-op.
      // Sent with the other acks of this turn of the event loop, in one socket write.
      acks.ack(message);
    },
    nak: async (delayMs) => message.nak(delayMs),
    term: async () => message.term(),
  };
}

/** The W3C trace context the publisher sent as headers, if any. */
function traceHeaders(message: JsMsg): TraceHeaders | undefined {
  const traceparent = message.headers?.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = message.headers?.get('tracestate');
  return { traceparent, ...(tracestate ? { tracestate } : {}) };
}
