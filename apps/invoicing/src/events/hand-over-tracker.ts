/**
 * The read model hand-overs that run after a transaction someone else commits (the charge
 * consumer's and the grouped-invoice issuer's, for a test-clock organization): each is tracked
 * from inside or before its transaction, so a caller that has seen the commit (AwaitCharges, the
 * test clock's "everything due is invoiced") can wait until its hand-over ended too. Hand-overs
 * of runChange use cases need no tracking: they end before the use case returns.
 */
export class HandOverTracker {
  private readonly pending = new Set<Promise<void>>();
  /** When the hand-over that started last (in commit order) has ended. */
  private last: Promise<void> = Promise.resolve();

  /**
   * A hand-over of a transaction that has not committed yet, tracked from now (idle waits for it).
   * After the commit, `run` starts it once the hand-over run before it has ended (one at a time, in
   * commit order) and answers when that previous one ended, not its own: the committer (the charge
   * consumer, which takes its next batch after the commit; the grouped-invoice issuer's pass) is
   * held up by a slow read model for at most one hand-over, and at most two are under way or
   * waiting. `cancel` ends it unrun (rollback, or nothing to hand over).
   */
  begin(): { run(handOver: () => Promise<void>): Promise<void>; cancel(): void } {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    this.track(ended);
    return {
      run: async (handOver) => {
        const previous = this.last;
        this.last = ended;
        // A hand-over must not throw; should one, it has ended all the same.
        void previous.then(handOver).then(end, end);
        await previous;
      },
      cancel: end,
    };
  }

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
