/**
 * Hands queued messages to a batch handler, one batch after the other, where a batch may let the
 * next one start before it ends: the handler is given `admitNext`, and the next batch (whatever was
 * queued by then) starts once it is called, or once the handler settles, whichever comes first.
 *
 * Why: a batch of the invoicing consumer spends most of its time waiting on other services before
 * it takes its organization's number counter, and the rest writing after it. Admitting the next
 * batch once the counter is taken lets that one make its calls while this one writes; it cannot
 * number before this one commits (Postgres holds the counter row for this one), so numbers keep
 * the stream's order. A handler that never calls `admitNext` gets batches strictly one at a time.
 *
 * The only wait this adds inside the process is the admission itself, before the next batch holds
 * anything; every other wait between two batches is a Postgres lock wait, which Postgres sees (a
 * cycle is a deadlock error, and the batch falls back to one message at a time).
 */
export class BatchPipeline<T> {
  private readonly queue: T[] = [];
  /** The last batch started, until it admitted the next. */
  private unadmitted: Promise<void> | undefined;
  private readonly running = new Set<Promise<void>>();
  private pumpScheduled = false;
  private waiters: Array<() => void> = [];

  constructor(private readonly handle: (batch: T[], admitNext: () => void) => Promise<void>) {}

  /** Queues a message; it starts a batch on the next turn of the event loop (with what arrived in this one). */
  push(item: T): void {
    this.queue.push(item);
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * Resolves once everything queued is in a batch and the last batch started has admitted the
   * next: the moment to fetch more (with fetches as large as a batch, waiting for the batch to end
   * would leave nothing to start meanwhile).
   */
  async admitted(): Promise<void> {
    while (this.queue.length > 0 || this.unadmitted) await this.changed();
  }

  /** Resolves once every batch started has ended. */
  async drained(): Promise<void> {
    while (this.queue.length > 0 || this.running.size > 0) await this.changed();
  }

  private pump(): void {
    if (this.unadmitted || this.pumpScheduled || this.queue.length === 0) return;
    const batch = this.queue.splice(0);
    let admit!: () => void;
    const admission = new Promise<void>((resolve) => {
      admit = resolve;
    });
    this.unadmitted = admission;
    void admission.then(() => {
      if (this.unadmitted === admission) this.unadmitted = undefined;
      this.pump();
      this.notify();
    });
    const run: Promise<void> = Promise.resolve()
      .then(() => this.handle(batch, admit))
      .catch(() => {
        // The handler reports its own failures (PullConsumerLoop.deliverBatch logs them).
      })
      .finally(() => {
        admit();
        this.running.delete(run);
        this.notify();
      });
    this.running.add(run);
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
