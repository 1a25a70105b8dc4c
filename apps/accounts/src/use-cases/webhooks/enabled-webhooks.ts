/**
 * How far the event bus's clock (JetStream's server) may be off this process's: hosts kept by NTP
 * agree within milliseconds; a larger difference only makes the cache answer "unknown" more often
 * when it is this process's clock that is behind, and skip wrongly when it is ahead by more.
 */
export const CLOCK_MARGIN_MS = 1_000;

/** When a read of the webhooks began: the cache's generation and the wall clock. */
export interface WebhooksRead {
  generation: number;
  startedAt: number;
}

/**
 * What this process knows, without asking the database, of which public events each organization's
 * enabled webhooks take: lets the webhook consumers acknowledge an event no webhook takes without a
 * transaction or an inbox row (webhook-consumers.ts says why that is safe).
 *
 * An organization's entry is only trusted while it is known to be current:
 * - a change made by this process (manage-webhooks) drops the entry before its transaction starts
 *   and again once it ended, and no entry of it is stored in between;
 * - a change made by another replica drops it when its notification arrives (every change of a
 *   webhook row notifies at its commit, db/webhook-change-notices.ts; this process listens);
 * - nothing is stored or trusted while the listening connection is not established, and losing it
 *   drops every entry;
 * - a read that a change or a notification overtook is not stored (the generation moved);
 * - an entry expires after `ttlMs` anyway, which bounds what a listening connection that died
 *   without telling could cost;
 * - for a message of the event bus, an entry is trusted only when its read began after the bus
 *   stored the message (by more than CLOCK_MARGIN_MS, the bus's clock being another host's). A
 *   webhook committed before the event was stored is then in the read, or its notification dropped
 *   the entry. Without this, a replica that had not yet heard of another's new webhook skipped an
 *   event stored after the webhook's commit, and the webhook missed it. This needs the read's
 *   snapshot to be taken after readStarted(): the inbox transaction it runs in is READ COMMITTED
 *   (a statement's snapshot is its own). So the cache answers only for events stored more than
 *   the margin before its read: a consumer that keeps up goes through the transaction.
 */
export class EnabledWebhooks {
  private readonly entries = new Map<string, { events: ReadonlySet<string>; storedAt: number; readAt: number }>();
  /** Organizations with a change of this process in flight. */
  private readonly changing = new Map<string, number>();
  /** Moves with every invalidation: a read started before one is not stored. */
  private generation = 0;
  private listening = false;

  constructor(
    private readonly ttlMs = 2_000,
    private readonly now: () => number = () => performance.now(),
    /** The wall clock (ms since the epoch), compared with when the bus stored a message. */
    private readonly wallClock: () => number = () => Date.now(),
  ) {}

  /**
   * Whether an enabled webhook of the organization takes the public event `name`: null when not
   * known (no current entry, or, for an event the bus stored at `storedAt`, none read after that),
   * and the caller must ask the database. `storedAt` null: a copy of the event (a producer's
   * hand-over) whose stream copy is decided again when it is consumed.
   */
  takes(organizationId: string, name: string, storedAt: Date | null): boolean | null {
    const key = organizationId.toLowerCase();
    const entry = this.entries.get(key);
    if (!entry || !this.listening) return null;
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.entries.delete(key);
      return null;
    }
    if (storedAt && entry.readAt <= storedAt.getTime() + CLOCK_MARGIN_MS) return null;
    return entry.events.has(name);
  }

  /** Taken before reading the webhooks whose result is then given to `store`. */
  readStarted(): WebhooksRead {
    return { generation: this.generation, startedAt: this.wallClock() };
  }

  /**
   * The enabled webhooks' events per organization as a read begun at `read` found them; stored
   * unless something changed since the read began.
   */
  store(read: WebhooksRead, byOrganization: ReadonlyMap<string, ReadonlyArray<{ events: readonly string[] }>>): void {
    if (!this.listening || read.generation !== this.generation) return;
    const storedAt = this.now();
    for (const [organizationId, webhooks] of byOrganization) {
      const key = organizationId.toLowerCase();
      if (this.changing.has(key)) continue;
      this.entries.set(key, {
        events: new Set(webhooks.flatMap((webhook) => webhook.events)),
        storedAt,
        readAt: read.startedAt,
      });
    }
  }

  /** Another process changed the organization's webhooks (its notification arrived). */
  invalidate(organizationId: string): void {
    this.generation += 1;
    this.entries.delete(organizationId.toLowerCase());
  }

  /** A change of this process: the organization is not known from before `change` starts until after it ended. */
  async changeOf<T>(organizationId: string, change: () => Promise<T>): Promise<T> {
    const key = organizationId.toLowerCase();
    this.changing.set(key, (this.changing.get(key) ?? 0) + 1);
    this.invalidate(key);
    try {
      return await change();
    } finally {
      const left = (this.changing.get(key) ?? 1) - 1;
      if (left === 0) this.changing.delete(key);
      else this.changing.set(key, left);
      this.invalidate(key);
    }
  }

  /** The notifications are heard from now on (nothing stored before is trusted). */
  listeningStarted(): void {
    this.dropAll();
    this.listening = true;
  }

  /** The notifications may be missed from now on: nothing is known until they are heard again. */
  listeningLost(): void {
    this.listening = false;
    this.dropAll();
  }

  private dropAll(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
