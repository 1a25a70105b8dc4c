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
});
