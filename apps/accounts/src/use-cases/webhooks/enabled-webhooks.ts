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
 *   without telling could cost.
 */
export class EnabledWebhooks {
  private readonly entries = new Map<string, { events: ReadonlySet<string>; storedAt: number }>();
  /** Organizations with a change of this process in flight. */
  private readonly changing = new Map<string, number>();
  /** Moves with every invalidation: a read started before one is not stored. */
  private generation = 0;
  private listening = false;

  constructor(
    private readonly ttlMs = 2_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Whether an enabled webhook of the organization takes the public event `name`: null when not
   * known (no current entry), and the caller must ask the database.
   */
  takes(organizationId: string, name: string): boolean | null {
    const key = organizationId.toLowerCase();
    const entry = this.entries.get(key);
    if (!entry || !this.listening) return null;
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.entries.delete(key);
      return null;
    }
    return entry.events.has(name);
  }

  /** Taken before reading the webhooks whose result is then given to `store`. */
  readStarted(): number {
    return this.generation;
  }

  /**
   * The enabled webhooks' events per organization as a read begun at `generation` found them;
   * stored unless something changed since the read began.
   */
  store(generation: number, byOrganization: ReadonlyMap<string, ReadonlyArray<{ events: readonly string[] }>>): void {
    if (!this.listening || generation !== this.generation) return;
    const storedAt = this.now();
    for (const [organizationId, webhooks] of byOrganization) {
      const key = organizationId.toLowerCase();
      if (this.changing.has(key)) continue;
      this.entries.set(key, { events: new Set(webhooks.flatMap((webhook) => webhook.events)), storedAt });
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
