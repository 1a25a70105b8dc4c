/** Lets idle consumer loops sleep until something changes (a publish, a nak, a stop) or a deadline. */
export class Wakeup {
  private waiters = new Set<() => void>();

  wait(timeoutMs: number | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(done, Math.max(0, timeoutMs));
      this.waiters.add(done);
    });
  }

  notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
