import { type Clock, systemClock } from '@billing/clock';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { EventBus } from '../bus/event-bus.js';
import { outboxTable } from '../outbox/outbox-message.entity.js';
import { InterruptibleSleep } from '../support/interruptible-sleep.js';
import type { EventsLogger } from '../support/logger.js';
import { publishInSpan } from '../support/message-tracing.js';
import { OutboxFloor } from './outbox-floor.js';
import { type OutboxPositionSequence, readOutboxPositionSequence } from './outbox-position-sequence.js';
import { claimOutboxRows, releaseOutboxRows } from './outbox-rows.js';
import { wakeOnOutboxCommit } from './wake-on-outbox-commit.js';

export interface OutboxRelayOptions {
  orm: MikroORM;
  bus: EventBus;
  /** The service whose outbox this is; its stream is created before the first publish. */
  producer: string;
  logger: EventsLogger;
  clock?: Clock;
  /** Rows claimed (and locked) per transaction (default RELAY_BATCH_SIZE). */
  batchSize?: number;
  /** Pause between polls when the outbox is empty (default 500 ms); wake() cuts it short. */
  pollIntervalMs?: number;
  /** Upper bound of the backoff after a failed publish (default 30 s). */
  maxBackoffMs?: number;
  /**
   * How often (on `clock`) a claim scans the outbox from its start instead of from the floor
   * (default 30 s; the first claim always does). See OutboxFloor.
   */
  fullScanIntervalMs?: number;
}

export interface DrainResult {
  published: number;
  /** The publish or database error that stopped this drain; rows stay pending for the next one. */
  error?: unknown;
}

const LAST_ERROR_MAX_LENGTH = 2_000;

/**
 * Rows a relay claims and publishes per transaction. Each round costs the same few statements and a
 * wait for the event loop between them, which a busy producer makes long: with 100, subscriptions'
 * relay published about 780 rows a second while its scheduler renewed 1,000 subscriptions a second
 * (two rows each), so charges reached invoicing at half the pace they were made (a 30,000 billing
 * run: 37,700 rows waiting when the renewals ended). Its acks are awaited together, so a larger
 * round takes little longer than a small one.
 */
const RELAY_BATCH_SIZE = 500;

/**
 * Publishes committed outbox rows to the bus, oldest first, and marks each published only after the
 * bus acknowledged it. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so any number of replicas can
 * relay the same outbox without publishing a row twice at the same time; if a row is published and
 * the process dies before marking it, the republish carries the same message id and the stream's
 * duplicate window drops it.
 *
 * Claims start at the relay's floor (OutboxFloor): every row below it is published for good, so a
 * claim does not walk the dead index entries of the rows published before it.
 */
export class OutboxRelay {
  private readonly clock: Clock;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly maxBackoffMs: number;
  private readonly pause = new InterruptibleSleep();
  private streamReady = false;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private readonly lockKey: string;
  /** The outbox table, schema-qualified as the ORM's queries are. */
  private readonly table: string;
  private wakesOnCommit = false;
  /** Read at the first drain; the floor is used only when the outbox's positions allow it. */
  private positions: OutboxPositionSequence | undefined;
  private readonly floor: OutboxFloor;

  constructor(private readonly options: OutboxRelayOptions) {
    this.clock = options.clock ?? systemClock;
    this.batchSize = options.batchSize ?? RELAY_BATCH_SIZE;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.floor = new OutboxFloor(options.fullScanIntervalMs ?? 30_000);
    // One outbox per service schema, so the schema names the lock.
    const schema = options.orm.config.get('schema');
    this.lockKey = `billing:outbox-relay:${schema ?? options.producer}`;
    this.table = outboxTable(schema);
  }

  /** Publishes everything pending now, batch by batch, stopping at the first failure. */
  async drainOnce(): Promise<DrainResult> {
    let published = 0;
    try {
      if (!this.streamReady) {
        await this.options.bus.ensureStream(this.options.producer);
        this.streamReady = true;
      }
      const positions = await this.positionSequence();
      for (;;) {
        const batch = await this.publishBatch(positions);
        published += batch.published;
        if (batch.error !== undefined) return { published, error: batch.error };
        if (batch.claimed < this.batchSize) return { published };
      }
    } catch (error) {
      return { published, error };
    }
  }

  start(): void {
    if (this.loop) return;
    if (!this.wakesOnCommit) {
      // Once per relay: MikroORM keeps a subscriber for the ORM's life (a stopped relay ignores wakes).
      wakeOnOutboxCommit(this.options.orm, () => this.pause.wake());
      this.wakesOnCommit = true;
    }
    this.stopping = false;
    this.loop = this.run();
  }

  /** Polls now instead of at the end of the interval, e.g. right after a use case committed events. */
  wake(): void {
    this.pause.wake();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.pause.wake();
    await this.loop;
    this.loop = undefined;
  }

  /** The highest position below which every row is published (0 until the relay knows better). */
  get floorPosition(): number {
    return this.floor.current;
  }

  private async positionSequence(): Promise<OutboxPositionSequence> {
    if (this.positions) return this.positions;
    const positions = await readOutboxPositionSequence(this.options.orm.em.fork(), this.table);
    if (!positions.supportsFloor) {
      this.options.logger.warn(
        { producer: this.options.producer, reason: positions.reason },
        'outbox positions do not allow a claim floor; every claim scans the outbox from its start',
      );
    }
    this.positions = positions;
    return positions;
  }

  private async run(): Promise<void> {
    let consecutiveFailures = 0;
    while (!this.stopping) {
      const { published, error } = await this.drainOnce();
      if (error === undefined) {
        consecutiveFailures = 0;
        if (published > 0) this.options.logger.debug({ published }, 'outbox rows published');
        await this.pause.sleep(this.pollIntervalMs);
      } else {
        consecutiveFailures += 1;
        const backoffMs = Math.min(this.maxBackoffMs, 100 * 2 ** consecutiveFailures);
        this.options.logger.warn(
          { err: error, published, backoff_ms: backoffMs, producer: this.options.producer },
          'outbox relay could not publish; retrying',
        );
        await this.pause.sleep(backoffMs);
      }
    }
  }

  /**
   * One transaction: become the outbox's only publisher for its duration, lock the oldest
   * unpublished rows (above the floor), publish them in order, record the outcome. The floor
   * learns from the claim only once the transaction committed.
   *
   * Replicas must not publish concurrently: with SKIP LOCKED alone, one replica holding an older
   * row while another publishes a newer one would deliver an aggregate's events out of order (an
   * account.deleted before its account.updated). The transaction-scoped advisory lock makes the
   * replicas take turns; a replica that does not get it leaves the round to the one that did.
   */
  private async publishBatch(
    positions: OutboxPositionSequence,
  ): Promise<{ claimed: number; published: number; error?: unknown }> {
    const plan = positions.supportsFloor ? this.floor.plan(this.clock.now().getTime()) : undefined;
    const em = this.options.orm.em.fork();
    const { claim, published, lowestReleased, error } = await em.transactional(async (tx) => {
      const claim = await claimOutboxRows(tx, this.table, this.lockKey, this.batchSize, this.clock.now(), {
        after: plan?.after ?? 0,
        sequenceOid: positions.oid,
        settleAfterXid: plan?.settleAfterXid,
      });
      const rows = claim.rows;
      // All sent at once (one socket write, acks awaited together) instead of one round trip each.
      // Each but the first names its predecessor, so the stream stores a row only right after the
      // one before it: a row that fails cannot be overtaken by a later one, which is refused too.
      const outcomes = await Promise.allSettled(
        rows.map((row, index) =>
          publishInSpan(row, (headers) =>
            this.options.bus.publish({
              subject: row.subject,
              messageId: row.id,
              data: row.payload,
              headers,
              previousMessageId: index > 0 ? rows[index - 1]!.id : undefined,
            }),
          ),
        ),
      );
      const failed = outcomes.findIndex((outcome) => outcome.status === 'rejected');
      if (failed === -1) return { claim, published: rows.length, lowestReleased: undefined, error: undefined };
      // Keep order: the failed row and the later ones wait until it goes out.
      const error = (outcomes[failed] as PromiseRejectedResult).reason;
      await releaseOutboxRows(
        tx,
        this.table,
        rows.slice(failed).map((row) => row.id),
        describe(error),
      );
      return { claim, published: failed, lowestReleased: rows[failed]!.position, error };
    });
    if (plan) {
      this.floor.committed(plan, {
        lastPosition: claim.lastPosition,
        xid: claim.xid,
        settles: claim.settles,
        firstUnpublished: claim.firstUnpublished,
        lowestClaimed: claim.rows[0]?.position,
        lowestReleased,
      });
    }
    const claimed = claim.rows.length;
    return error === undefined ? { claimed, published } : { claimed, published, error };
  }
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, LAST_ERROR_MAX_LENGTH);
}
