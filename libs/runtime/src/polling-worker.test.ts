import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPollingWorker } from './polling-worker.js';

/** A pass the test ends when it wants: `passes` counts the started ones, `finish()` ends the latest. */
function controlledPass() {
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  return {
    get passes() {
      return pending.length;
    },
    run: () =>
      new Promise<void>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
    finish: () => pending.at(-1)!.resolve(),
    fail: (error: Error) => pending.at(-1)!.reject(error),
  };
}

const logged: { details: object; message: string }[] = [];
const logger = { error: (details: object, message: string) => void logged.push({ details, message }) };

beforeEach(() => {
  vi.useFakeTimers();
  logged.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startPollingWorker', () => {
  it('runs a pass at once and the next one the interval after it ended, never two at a time', async () => {
    const pass = controlledPass();
    const worker = startPollingWorker('issuer', 100, logger, pass.run);
    expect(pass.passes).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(pass.passes).toBe(1);
    pass.finish();
    await vi.advanceTimersByTimeAsync(99);
    expect(pass.passes).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass.passes).toBe(2);
    pass.finish();
    await worker.stop();
    expect(logged).toEqual([]);
  });

  it('logs a failing pass with the worker name and goes on', async () => {
    const pass = controlledPass();
    const worker = startPollingWorker('mail', 50, logger, pass.run);
    const failure = new Error('smtp down');
    pass.fail(failure);
    await vi.advanceTimersByTimeAsync(50);
    expect(logged).toEqual([{ details: { err: failure, worker: 'mail' }, message: 'worker pass failed' }]);
    expect(pass.passes).toBe(2);
    pass.finish();
    await worker.stop();
  });

  it('wakes: a pass at once while it sleeps, right after the running pass when woken during one', async () => {
    const pass = controlledPass();
    const worker = startPollingWorker('exports', 1000, logger, pass.run);
    pass.finish();
    await vi.advanceTimersByTimeAsync(10);
    expect(pass.passes).toBe(1);
    worker.wake();
    expect(pass.passes).toBe(2);
    worker.wake();
    expect(pass.passes).toBe(2);
    pass.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass.passes).toBe(3);
    pass.finish();
    await vi.advanceTimersByTimeAsync(999);
    expect(pass.passes).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass.passes).toBe(4);
    pass.finish();
    await worker.stop();
    worker.wake();
    expect(pass.passes).toBe(4);
  });

  it('stop waits for the running pass and starts no other', async () => {
    const pass = controlledPass();
    const worker = startPollingWorker('issuer', 10, logger, pass.run);
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    pass.finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pass.passes).toBe(1);
  });
});
