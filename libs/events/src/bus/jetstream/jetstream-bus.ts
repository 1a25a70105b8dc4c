import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  type JetStreamClient,
  type JetStreamManager,
  jetstreamManager,
  StorageType,
} from '@nats-io/jetstream';
import { connect, type NatsConnection, nanos } from '@nats-io/transport-node';
import { DUPLICATE_WINDOW_MS, producerSubjects, streamNameFor } from '../../envelope/subjects.js';
import { type EventsLogger, silentLogger } from '../../support/logger.js';
import { EventBusUnavailableError } from '../bus-unavailable.js';
import {
  type ConsumeRequest,
  DEFAULT_ACK_WAIT_MS,
  type EventBus,
  type PublishRequest,
  type RunningConsumer,
} from '../event-bus.js';
import { AckBatcher } from './ack-batcher.js';
import { isApiError } from './jetstream-errors.js';
import { PullConsumerLoop } from './pull-consumer-loop.js';
import { StreamPublisher } from './stream-publisher.js';

/** One durable's backlog on the server (JetStreamBus.consumerLag). */
export interface ConsumerLag {
  stream: string;
  durable: string;
  pending: number;
  ackPending: number;
  /** Pull requests waiting on the server: the consumer loops pulling, over every process. */
  waitingPulls: number;
}

export interface JetStreamBusOptions {
  servers: string | string[];
  /** Connection name shown by the server, e.g. the service name. */
  name?: string;
  logger?: EventsLogger;
  /** How long publish waits for the stream's ack before failing (default 5 s). */
  publishTimeoutMs?: number;
}

/**
 * The EventBus on NATS JetStream: file-backed streams with a duplicate window, publishes deduped by
 * `msgID`, durable pull consumers with explicit acks. The connection reconnects forever, so a NATS
 * restart shows up as failed publishes and empty fetches for a while, never as a dead process.
 */
export class JetStreamBus implements EventBus {
  private readonly ensuredStreams = new Set<string>();
  private readonly running = new Set<PullConsumerLoop>();
  private readonly js: JetStreamClient;
  private readonly publisher: StreamPublisher;
  private readonly acks = new AckBatcher();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly logger: EventsLogger,
    publishTimeoutMs: number,
  ) {
    this.js = jsm.jetstream();
    this.publisher = new StreamPublisher(nc, publishTimeoutMs);
    void this.watchConnection();
  }

  static async connect(options: JetStreamBusOptions): Promise<JetStreamBus> {
    const nc = await connect({
      servers: options.servers,
      ...(options.name ? { name: options.name } : {}),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      waitOnFirstConnect: true,
      // Otherwise every request (each publish's ack, each ackAck) builds an Error up front for its
      // stack, in case it fails: a fifth of a busy consumer's NATS time in the billing run. Our
      // failures are logged with the consumer, subject and event instead.
      noAsyncTraces: true,
    });
    try {
      const jsm = await jetstreamManager(nc);
      return new JetStreamBus(nc, jsm, options.logger ?? silentLogger, options.publishTimeoutMs ?? 5_000);
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  async ensureStream(producer: string): Promise<void> {
    const name = streamNameFor(producer);
    if (this.ensuredStreams.has(name)) return;
    try {
      await this.jsm.streams.info(name);
    } catch (error) {
      if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
      try {
        await this.jsm.streams.add({
          name,
          subjects: [producerSubjects(producer)],
          duplicate_window: nanos(DUPLICATE_WINDOW_MS),
          storage: StorageType.File,
        });
      } catch (addError) {
        // Another replica (or a consumer of this producer) may have created it first.
        await this.jsm.streams.info(name).catch(() => {
          throw addError;
        });
      }
    }
    this.ensuredStreams.add(name);
  }

  publish(request: PublishRequest): Promise<void> {
    try {
      return this.publisher.publish({
        subject: request.subject,
        data: request.data,
        messageId: request.messageId,
        expectedLastMessageId: request.previousMessageId,
        headers: request.headers,
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async consume(request: ConsumeRequest): Promise<RunningConsumer> {
    await this.ensureDurable(request);
    const loop = new PullConsumerLoop(
      this.js,
      request,
      this.logger,
      this.acks,
      () => this.running.delete(loop),
      (lastSeen) => this.remakeDurable(request, lastSeen),
    );
    this.running.add(loop);
    loop.start();
    return loop;
  }

  async close(): Promise<void> {
    await Promise.all([...this.running].map((loop) => loop.stop()));
    this.acks.flush();
    this.publisher.close();
    await this.nc.close();
  }

  /** Resolves once the server answered a ping: for readiness probes (bound it with a timeout). */
  async ping(): Promise<void> {
    if (this.nc.isClosed()) throw new EventBusUnavailableError('NATS connection closed');
    await this.nc.rtt();
  }

  /**
   * How far each durable this bus consumes is behind, as the server counts it: messages not yet
   * delivered (num_pending) and delivered but not acknowledged (num_ack_pending).
   */
  async consumerLag(): Promise<ConsumerLag[]> {
    const durables = new Map<string, { stream: string; durable: string }>();
    for (const loop of this.running) durables.set(`${loop.stream}/${loop.durable}`, loop);
    return Promise.all([...durables.values()].map(({ stream, durable }) => this.durableLag(stream, durable)));
  }

  /** How far any durable of the server is behind (also one another process consumes). */
  async durableLag(stream: string, durable: string): Promise<ConsumerLag> {
    const info = await this.jsm.consumers.info(stream, durable);
    return {
      stream,
      durable,
      pending: info.num_pending,
      ackPending: info.num_ack_pending,
      waitingPulls: info.num_waiting,
    };
  }

  async durableExists(stream: string, durable: string): Promise<boolean> {
    try {
      await this.jsm.consumers.info(stream, durable);
      return true;
    } catch (error) {
      if (
        isApiError(error, JetStreamApiCodes.ConsumerNotFound) ||
        isApiError(error, JetStreamApiCodes.StreamNotFound)
      ) {
        return false;
      }
      throw error;
    }
  }

  /** PullConsumerLoop's remake: after `lastSeen` when the stream still holds what follows it, else from the first. */
  private async remakeDurable(request: ConsumeRequest, lastSeen: number | undefined): Promise<number | 'first' | null> {
    let start: number | 'first' = 'first';
    if (lastSeen !== undefined) {
      const { state } = await this.jsm.streams.info(request.stream);
      // Not if the stream was made anew (NATS lost everything) or no longer holds the next message.
      if (state.last_seq >= lastSeen && state.first_seq <= lastSeen + 1) start = lastSeen + 1;
    }
    const created = await this.ensureDurable(request, typeof start === 'number' ? { sequence: start } : 'first');
    return created ? start : null;
  }

  /** Resolves to whether it created the durable. */
  private async ensureDurable(
    request: ConsumeRequest,
    start: 'first' | 'new' | { sequence: number } = request.deliverFrom ?? 'first',
  ): Promise<boolean> {
    const ackWait = nanos(request.ackWaitMs ?? DEFAULT_ACK_WAIT_MS);
    const maxDeliver = request.maxDeliver ?? -1;
    try {
      const { config } = await this.jsm.consumers.info(request.stream, request.durable);
      if (config.filter_subject !== request.filterSubject) {
        throw new Error(
          `Durable ${request.stream}/${request.durable} filters "${config.filter_subject}", not "${request.filterSubject}"`,
        );
      }
      if (config.ack_wait !== ackWait || config.max_deliver !== maxDeliver) {
        await this.jsm.consumers.update(request.stream, request.durable, {
          ack_wait: ackWait,
          max_deliver: maxDeliver,
        });
      }
      return false;
    } catch (error) {
      if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
      try {
        await this.jsm.consumers.add(request.stream, {
          durable_name: request.durable,
          filter_subject: request.filterSubject,
          ack_policy: AckPolicy.Explicit,
          ...deliverPolicyOf(start),
          ack_wait: ackWait,
          max_deliver: maxDeliver,
        });
      } catch (addError) {
        // Another process added it since we looked (perhaps from another start: JetStream refuses
        // an add that differs): a durable that exists resumes where it stands, so use it.
        const existing = await this.jsm.consumers.info(request.stream, request.durable).catch(() => null);
        if (existing?.config.filter_subject !== request.filterSubject) throw addError;
        return false;
      }
      return true;
    }
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect' || status.type === 'error') {
        this.logger.warn({ nats_status: status.type }, 'NATS connection status changed');
      }
      if (status.type === 'reconnect') {
        for (const loop of this.running) loop.restartFetch();
      }
    }
  }
}

function deliverPolicyOf(start: 'first' | 'new' | { sequence: number }) {
  if (start === 'first') return { deliver_policy: DeliverPolicy.All };
  if (start === 'new') return { deliver_policy: DeliverPolicy.New };
  return { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: start.sequence };
}
