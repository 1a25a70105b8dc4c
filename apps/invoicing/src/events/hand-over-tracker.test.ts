import { describe, expect, it } from 'vitest';
import { HandOverTracker } from './hand-over-tracker.js';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
};

describe('HandOverTracker', () => {
  it('idle waits for every hand-over tracked before it, delivered or failed', async () => {
    const tracker = new HandOverTracker();
    const first = deferred();
    const second = deferred();
    tracker.track(first.promise);
    tracker.track(second.promise);
    let idle = false;
    const waiting = tracker.idle().then(() => {
      idle = true;
    });
    first.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(idle).toBe(false);
    second.reject(new Error('accounts unreachable'));
    await waiting;
    expect(idle).toBe(true);
  });

  it('is idle at once when nothing is under way, and forgets settled hand-overs', async () => {
    const tracker = new HandOverTracker();
    await expect(tracker.idle()).resolves.toBeUndefined();
    const done = deferred();
    tracker.track(done.promise);
    done.resolve();
    await tracker.idle();
    const later = deferred();
    tracker.track(later.promise);
    let idle = false;
    const waiting = tracker.idle().then(() => {
      idle = true;
    });
    await Promise.resolve();
    expect(idle).toBe(false);
    later.resolve();
    await waiting;
    expect(idle).toBe(true);
  });

  it('runs begun hand-overs one at a time in commit order; run answers once the one before ended', async () => {
    const tracker = new HandOverTracker();
    const log: string[] = [];
    const first = deferred();
    const second = deferred();
    const a = tracker.begin();
    const b = tracker.begin();
    const c = tracker.begin();
    // Committed in the order a, b; c rolled back.
    await a.run(async () => {
      log.push('a starts');
      await first.promise;
      log.push('a ends');
    });
    let bAnswered = false;
    const bRun = b
      .run(async () => {
        log.push('b starts');
        await second.promise;
        log.push('b ends');
      })
      .then(() => {
        bAnswered = true;
      });
    c.cancel();
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    expect(bAnswered).toBe(false);
    let idle = false;
    const waiting = tracker.idle().then(() => {
      idle = true;
    });
    first.resolve();
    await bRun;
    // b answered once a ended, while b's own hand-over still runs: idle waits for it.
    expect(log).toEqual(['a starts', 'a ends', 'b starts']);
    expect(idle).toBe(false);
    second.reject(new Error('accounts unreachable'));
    await waiting;
    expect(log).toEqual(['a starts', 'a ends', 'b starts']);
    expect(idle).toBe(true);
  });
});
