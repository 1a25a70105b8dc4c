/**
 * The read model hand-overs that run after a transaction someone else commits (the charge
 * consumer's): each is tracked from inside its transaction, so a caller that has seen the commit
 * (AwaitCharges, the test clock's "everything due is invoiced") can wait until its hand-over ended
 * too. Hand-overs of runChange use cases need no tracking: they end before the use case returns.
 */
export class HandOverTracker {
  private readonly pending = new Set<Promise<void>>();

  track(handOver: Promise<void>): void {
    this.pending.add(handOver);
    const forget = () => {
      this.pending.delete(handOver);
    };
    // then(forget, forget), not finally: a failed hand-over must not become an unhandled rejection.
    handOver.then(forget, forget);
  }

  /** Resolves once every hand-over tracked before the call has settled. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}
