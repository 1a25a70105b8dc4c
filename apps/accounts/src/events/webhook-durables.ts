import type { EventBus, EventsLogger, RunningConsumer } from '@billing/events';
import { EventBusUnavailableError, streamNameFor } from '@billing/events';
import type { WebhookConsumerStarter } from './webhook-consumers.js';
import { WEBHOOK_EVENT_MAP, type WebhookEventMapping } from './webhook-event-map.js';

/** How often a process looks for webhook durables another replica created (besides when told). */
export const WEBHOOK_DURABLES_RESCAN_MS = 30_000;

/** How long a webhook change waits for its durables to be made before it fails as unavailable. */
export const OPEN_TIMEOUT_MS = 3_000;

/**
 * The webhooks' durable consumers (one per mapped event type, webhook-consumers.ts), created only
 * once some enabled webhook takes their public event. Before, every process consumed all of them
 * from the start: in a monthly billing run without webhooks, each renewal's subscription change,
 * invoice and activities (about five messages per subscription) reached accounts only to be
 * acknowledged.
 *
 * Why no event a webhook takes is missed: a change that leaves an enabled webhook taking a public
 * event first makes its durable exist (created to deliver what the stream stores from then on),
 * and only then commits (use-cases/webhooks/manage-webhooks.ts). Every event stored later is
 * processed by the durable after that moment, with the webhooks of its own time. An event stored
 * before the durable existed was stored before the webhook existed: a durable there all along
 * would have delivered it only if it lagged behind the webhook's commit (an event's deliveries are
 * decided by the webhooks that exist when it is processed), so such events were never promised
 * (docs/api.md); a durable that already exists, lagging, still delivers them.
 *
 * Replicas: the process that made the change consumes at once; the others start when they hear of
 * the change (webhook-change-listener), and look every WEBHOOK_DURABLES_RESCAN_MS besides. At
 * start a process consumes every durable that exists. A durable, once created, stays and is
 * consumed even when no webhook takes its event any more. When an enabled webhook takes an event
 * whose durable is missing at start (NATS lost its state), it is created from the stream's first
 * message, as every webhook durable was before; one lost while consumed is made again by its
 * consumer, after the last message it received (libs/events PullConsumerLoop), so openFor may
 * trust a consumer that runs: what a change stores after it is delivered, a few seconds late.
 */
export class WebhookDurables {
  /** The started (or starting) consumer of each mapped event type. */
  private readonly consuming = new Map<string, Promise<RunningConsumer>>();
  private stopped = false;
  private scanning: Promise<void> | null = null;
  private scanAgain = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: {
      bus: EventBus;
      logger: EventsLogger;
      start: WebhookConsumerStarter;
      /** The durable's name (webhookConsumerName for the service's schema). */
      durableName: (mapping: WebhookEventMapping) => string;
      rescanMs?: number;
      /** How long openFor waits for the bus (default OPEN_TIMEOUT_MS). */
      openTimeoutMs?: number;
    },
  ) {}

  /**
   * When the service starts: consumes every webhook durable that exists, and creates those whose
   * public event an enabled webhook takes (`taken`) but which are missing.
   */
  async resume(taken: ReadonlySet<string>): Promise<void> {
    await Promise.all(
      WEBHOOK_EVENT_MAP.map(async (mapping) => {
        if (taken.has(mapping.name)) await this.consume(mapping, 'first');
        else if (await this.exists(mapping)) await this.consume(mapping, 'new');
      }),
    );
    const rescanMs = this.deps.rescanMs ?? WEBHOOK_DURABLES_RESCAN_MS;
    if (!this.stopped) this.timer = setInterval(() => this.discover(), rescanMs).unref();
  }

  /**
   * Before a change that leaves an enabled webhook taking these public events commits: their
   * durables exist and this process consumes them. Throws when a durable cannot be made (the
   * change must then not happen): EventBusUnavailableError when the bus did not answer within
   * `timeLimitMs` (at most the configured openTimeoutMs; durables already consumed need no time).
   */
  async openFor(names: readonly string[], timeLimitMs = Number.POSITIVE_INFINITY): Promise<void> {
    const wanted = new Set(names);
    const opened = Promise.all(
      WEBHOOK_EVENT_MAP.filter((mapping) => wanted.has(mapping.name)).map((mapping) => this.consume(mapping, 'new')),
    );
    // Within the caller's deadline: a NATS that does not answer fails the change in time to say
    // why. A start that completes later only leaves a durable no webhook needs yet.
    let timer: NodeJS.Timeout | undefined;
    const timeLimit = Math.max(0, Math.min(timeLimitMs, this.deps.openTimeoutMs ?? OPEN_TIMEOUT_MS));
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new EventBusUnavailableError(`webhook durables not made within ${timeLimit} ms`)),
        timeLimit,
      );
    });
    try {
      await Promise.race([opened, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Another process may have created durables (a replica's webhook change was heard): consumes
   * those that exist now. Calls while a look is under way make one more look after it.
   */
  discover(): void {
    if (this.stopped) return;
    if (this.scanning) {
      this.scanAgain = true;
      return;
    }
    this.scanning = this.scan()
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'cannot look for webhook durables; looking again later');
      })
      .finally(() => {
        this.scanning = null;
        if (this.scanAgain) {
          this.scanAgain = false;
          this.discover();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.scanning;
    const started = await Promise.allSettled(this.consuming.values());
    this.consuming.clear();
    for (const result of started) if (result.status === 'fulfilled') await result.value.stop();
  }

  private async scan(): Promise<void> {
    for (const mapping of WEBHOOK_EVENT_MAP) {
      if (this.stopped || this.consuming.has(mapping.eventType)) continue;
      if (await this.exists(mapping)) await this.consume(mapping, 'new');
    }
  }

  private exists(mapping: WebhookEventMapping): Promise<boolean> {
    return this.deps.bus.durableExists(streamNameFor(mapping.producer), this.deps.durableName(mapping));
  }

  /** Starts consuming the mapping's durable (creating it from `deliverFrom` if missing), once per process. */
  private async consume(mapping: WebhookEventMapping, deliverFrom: 'first' | 'new'): Promise<void> {
    let started = this.consuming.get(mapping.eventType);
    if (!started) {
      // Stopping: another replica can make the change.
      if (this.stopped) throw new EventBusUnavailableError('the webhook consumers are stopped');
      started = this.deps.start(mapping, deliverFrom);
      const attempt = started;
      this.consuming.set(mapping.eventType, attempt);
      // A start that failed is tried again by the next call.
      attempt.catch(() => {
        if (this.consuming.get(mapping.eventType) === attempt) this.consuming.delete(mapping.eventType);
      });
    }
    await started;
  }
}
