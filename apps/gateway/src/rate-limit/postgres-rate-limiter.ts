import type { Clock } from '@billing/clock';
import type pg from 'pg';
import { gatewayTable } from '../storage/gateway-storage.js';
import {
  decide,
  RATE_LIMIT_WINDOW_MS,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitHit,
  windowStartOf,
} from './rate-limiter.js';
import { limitReached, type Reservation, reservationSize, reserve, spend } from './reservation.js';

export interface PostgresRateLimiterOptions {
  /** The gateway's own schema; tests pass a throwaway one. */
  schema?: string;
}

export interface CleanupSchedule {
  clock: Clock;
  /** How often old windows are deleted; once a minute keeps the table at about one row per user. */
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

const TABLE = 'rate_limit_windows';

/**
 * Request counters shared by every gateway replica: one row per (API user, one-minute window),
 * bumped with a single INSERT ... ON CONFLICT DO UPDATE ... RETURNING, so concurrent requests on
 * any replica serialise on the row and the limit holds across the fleet. Windows are aligned to
 * the minute of the gateway's clock, so replicas agree on window boundaries without talking.
 */
export class PostgresRateLimiter implements RateLimiter {
  private readonly schemaName: string;
  private readonly table: string;
  /** Blocks reserved in the store and not yet spent, per API user (see reservation.ts). */
  private readonly reservations = new Map<string, Reservation>();
  /** The block reservation under way per API user, shared by the requests waiting for it. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresRateLimiterOptions = {},
  ) {
    ({ schemaName: this.schemaName, qualified: this.table } = gatewayTable(
      options.schema ?? 'gateway',
      TABLE,
      'rate limit',
    ));
  }

  /**
   * Creates the schema and table when missing. Replicas may start together, and concurrent
   * CREATE ... IF NOT EXISTS can still collide in the catalog, so creation runs under an advisory
   * lock.
   */
  async ensureSchema(): Promise<void> {
    // One simple-protocol query: its statements run as one transaction, so the advisory lock holds
    // to its end; and no client is held between statements, where a connection cut (restart,
    // failover) would reach nobody and kill the process. The schema name was checked above.
    await this.pool.query(
      `SELECT pg_advisory_xact_lock(hashtext('${this.schemaName}.${TABLE}'));
       CREATE SCHEMA IF NOT EXISTS "${this.schemaName}";
       CREATE TABLE IF NOT EXISTS ${this.table} (
         api_user_id text NOT NULL,
         window_start timestamptz NOT NULL,
         hits integer NOT NULL,
         PRIMARY KEY (api_user_id, window_start)
       )`,
    );
  }

  async hit({ key, limit, now }: RateLimitHit): Promise<RateLimitDecision> {
    const windowStart = windowStartOf(now).getTime();
    const size = reservationSize(limit);
    for (;;) {
      const held = this.reservations.get(key);
      const position = spend(held, windowStart);
      if (position !== null) return decide(position, limit, now);
      if (limitReached(held, windowStart, limit)) return decide(limit + 1, limit, now);
      if (size === 1) {
        // A block of one is spent by the request that reserved it: nothing to share or wait for.
        const own = await this.reserve(key, windowStart, 1, limit);
        this.reservations.set(key, own);
        return decide(spend(own, windowStart) ?? own.base + 1, limit, now);
      }
      // Larger blocks are shared: one reservation in flight per API user, the other requests wait
      // for it and spend from it, so concurrency never reserves more than it uses.
      await this.reserveShared(key, windowStart, size, limit);
    }
  }

  private reserveShared(key: string, windowStart: number, size: number, limit: number): Promise<void> {
    let inFlight = this.inFlight.get(key);
    if (!inFlight) {
      inFlight = this.reserve(key, windowStart, size, limit)
        .then((reservation) => void this.reservations.set(key, reservation))
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, inFlight);
    }
    return inFlight;
  }

  /** Adds `size` to the window's shared count in one round trip and returns the block it bought. */
  private async reserve(key: string, windowStart: number, size: number, limit: number): Promise<Reservation> {
    const result = await this.pool.query<{ hits: number }>({
      name: `rate-limit-hit:${this.schemaName}`,
      text: `INSERT INTO ${this.table} AS counter (api_user_id, window_start, hits)
             VALUES ($1, $2, $3)
             ON CONFLICT (api_user_id, window_start) DO UPDATE SET hits = counter.hits + $3
             RETURNING hits`,
      values: [key, new Date(windowStart), size],
    });
    const hits = result.rows[0]?.hits;
    if (hits === undefined) throw new Error('Rate limit counter upsert returned no row');
    return reserve(windowStart, hits, size, limit);
  }

  /**
   * Deletes windows older than the previous one; returns how many. The previous window is kept so
   * a replica whose clock runs a little behind does not find its counter reset.
   */
  async deleteExpiredWindows(now: Date): Promise<number> {
    const cutoff = new Date(windowStartOf(now).getTime() - RATE_LIMIT_WINDOW_MS);
    for (const [key, reservation] of this.reservations) {
      if (reservation.windowStart < cutoff.getTime()) this.reservations.delete(key);
    }
    const result = await this.pool.query(`DELETE FROM ${this.table} WHERE window_start < $1`, [cutoff]);
    return result.rowCount ?? 0;
  }

  /**
   * Runs deleteExpiredWindows periodically; returns a function that stops it. Any replica may run
   * it: the deletes are idempotent. The timer does not keep the process alive.
   */
  startCleanup({ clock, intervalMs = RATE_LIMIT_WINDOW_MS, onError }: CleanupSchedule): () => void {
    const timer = setInterval(() => {
      this.deleteExpiredWindows(clock.now()).catch((error: unknown) => onError?.(error));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
