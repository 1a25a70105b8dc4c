import { DUPLICATE_WINDOW_MS, producerOf, streamNameFor } from '../../envelope/subjects.js';
import { type EventsLogger, silentLogger } from '../../support/logger.js';
import {
  type ConsumeRequest,
  DEFAULT_ACK_WAIT_MS,
  type EventBus,
  type PublishRequest,
  type RunningConsumer,
} from '../event-bus.js';
import { DurableState } from './durable-state.js';
import { InProcessConsumer } from './in-process-consumer.js';
import { InProcessStream } from './in-process-stream.js';

/** JetStream's rule for durable names, enforced here too so `npm start` fails like production would. */
const DURABLE_NAME = /^[A-Za-z0-9_-]+$/;

export interface InProcessBusOptions {
  duplicateWindowMs?: number;
  logger?: EventsLogger;
}

/**
 * The EventBus in memory, for running every service in one process without NATS (`npm start`
 * with NATS_URL unset). It keeps JetStream's delivery contract — durable positions, dedupe by
 * message id, at-least-once with redelivery — but nothing survives the process.
 */
export class InProcessBus implements EventBus {
  private readonly streams = new Map<string, InProcessStream>();
  private readonly durables = new Map<string, DurableState>();
  private readonly running = new Set<InProcessConsumer>();
  private readonly duplicateWindowMs: number;
  private readonly logger: EventsLogger;
  private closed = false;

  constructor(options: InProcessBusOptions = {}) {
    this.duplicateWindowMs = options.duplicateWindowMs ?? DUPLICATE_WINDOW_MS;
    this.logger = options.logger ?? silentLogger;
  }

  async ensureStream(producer: string): Promise<void> {
    const name = streamNameFor(producer);
    if (!this.streams.has(name)) this.streams.set(name, new InProcessStream(name, this.duplicateWindowMs));
  }

  async publish(request: PublishRequest): Promise<void> {
    this.assertOpen();
    const stream = this.streams.get(streamNameFor(producerOf(request.subject)));
    if (!stream) throw new Error(`No stream stores subject "${request.subject}"; call ensureStream first`);
    stream.append(request, Date.now());
  }

  async consume(request: ConsumeRequest): Promise<RunningConsumer> {
    this.assertOpen();
    if (!DURABLE_NAME.test(request.durable)) {
      throw new Error(`Invalid durable name "${request.durable}": JetStream allows only [A-Za-z0-9_-]`);
    }
    const stream = this.streams.get(request.stream);
    if (!stream) throw new Error(`Stream ${request.stream} does not exist`);
    const key = `${request.stream}/${request.durable}`;
    let durable = this.durables.get(key);
    if (!durable) {
      durable = new DurableState(
        request.filterSubject,
        request.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
        request.maxDeliver ?? Number.POSITIVE_INFINITY,
        request.deliverFrom === 'new' ? stream.messages.length : 0,
      );
      this.durables.set(key, durable);
    } else if (durable.filterSubject !== request.filterSubject) {
      throw new Error(`Durable ${key} filters "${durable.filterSubject}", not "${request.filterSubject}"`);
    }
    const consumer = new InProcessConsumer(stream, durable, request.handler, this.logger, () =>
      this.running.delete(consumer),
    );
    this.running.add(consumer);
    consumer.start();
    return consumer;
  }

  async durableExists(stream: string, durable: string): Promise<boolean> {
    return this.durables.has(`${stream}/${durable}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running].map((consumer) => consumer.stop()));
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('InProcessBus is closed');
  }
}
