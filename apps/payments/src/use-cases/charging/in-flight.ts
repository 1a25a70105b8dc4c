/**
 * The invoices whose attempt runs in this process, so that the consumer's immediate run, the
 * worker and the test clock's advance never run one invoice twice at once: a second caller waits
 * for the running one instead. (Across replicas the invoice row's lock and the idempotency key
 * keep a charge single.)
 */
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  /**
   * Runs `work` once for those of `keys` not running yet (one piece of work for many keys), and
   * waits for the keys already running. Each key's result is what its run answered for it, or
   * `otherwise` when that run failed or did not name it.
   */
  async runMany(
    keys: readonly string[],
    work: (claimed: string[]) => Promise<Map<string, T>>,
    otherwise: T,
  ): Promise<Map<string, T>> {
    const unique = [...new Set(keys)];
    const others = unique
      .filter((key) => this.running.has(key))
      .map((key) =>
        this.running.get(key)!.then(
          (result) => [key, result] as const,
          () => [key, otherwise] as const,
        ),
      );
    const claimed = unique.filter((key) => !this.running.has(key));
    const batch = claimed.length > 0 ? work(claimed) : Promise.resolve(new Map<string, T>());
    for (const key of claimed) {
      const result = batch.then((results) => results.get(key) ?? otherwise);
      // Waiters on a key see the batch's answer for it (the batch's own caller sees its failure).
      result.catch(() => {});
      this.running.set(key, result);
    }
    const release = () => {
      for (const key of claimed) this.running.delete(key);
    };
    batch.then(release, release);
    const [own, waited] = await Promise.all([batch, Promise.all(others)]);
    const results = new Map(own);
    for (const [key, result] of waited) results.set(key, result);
    return results;
  }

  /** Settles once everything running now has ended. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }
}
