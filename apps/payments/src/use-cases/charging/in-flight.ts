/**
 * The invoices whose attempt runs in this process, so that the consumer's immediate run, the
 * worker and the test clock's advance never run one invoice twice at once: a second caller waits
 * for the running one instead. (Across replicas the invoice row's lock and the idempotency key
 * keep a charge single.)
 */
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const current = this.running.get(key);
    if (current) return current;
    const started = work().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }

  /** Settles once everything running now has ended. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }
}
