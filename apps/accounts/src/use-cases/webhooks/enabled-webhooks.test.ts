import { describe, expect, it } from 'vitest';
import { CLOCK_MARGIN_MS, EnabledWebhooks } from './enabled-webhooks.js';

const ORG = '6f1c1f0e-8a61-4c1b-9d8e-2f3a4b5c6d7e';

function listening(ttlMs = 1_000) {
  let time = 0;
  let wall = Date.parse('2026-11-29T10:00:00Z');
  const cache = new EnabledWebhooks(
    ttlMs,
    () => time,
    () => wall,
  );
  cache.listeningStarted();
  return {
    cache,
    advance: (ms: number) => {
      time += ms;
      wall += ms;
    },
  };
}

describe('EnabledWebhooks', () => {
  it('knows what a read found, per public event, until the entry expires', () => {
    const { cache, advance } = listening();
    expect(cache.takes(ORG, 'new_invoice', null)).toBeNull();
    cache.store(cache.readStarted(), new Map([[ORG.toUpperCase(), [{ events: ['paid_invoice'] }]]]));
    expect(cache.takes(ORG, 'new_invoice', null)).toBe(false);
    expect(cache.takes(ORG, 'paid_invoice', null)).toBe(true);
    advance(1_000);
    expect(cache.takes(ORG, 'paid_invoice', null)).toBe(true);
    advance(1);
    expect(cache.takes(ORG, 'paid_invoice', null)).toBeNull();
  });

  it('answers for a message of the bus only from a read begun after the bus stored it (with a clock margin)', () => {
    const { cache, advance } = listening(60_000);
    const readBegan = Date.parse('2026-11-29T10:00:00Z');
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    advance(5_000);
    // Stored before the read began, by more than the margin: a webhook committed before it is in the read.
    expect(cache.takes(ORG, 'new_invoice', new Date(readBegan - CLOCK_MARGIN_MS - 1))).toBe(false);
    // Stored later (or within the margin): a webhook another replica committed after the read may
    // take it before its notification arrives.
    expect(cache.takes(ORG, 'new_invoice', new Date(readBegan - CLOCK_MARGIN_MS))).toBeNull();
    expect(cache.takes(ORG, 'new_invoice', new Date(readBegan + 2_000))).toBeNull();
    // A new read begun after it answers.
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice', new Date(readBegan + 2_000))).toBe(false);
  });

  it('does not store a read that a change overtook', () => {
    const { cache } = listening();
    const generation = cache.readStarted();
    cache.invalidate('another organization');
    cache.store(generation, new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice', null)).toBeNull();
  });

  it("knows nothing of an organization while this process's change is in flight", async () => {
    const { cache } = listening();
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    await cache.changeOf(ORG, async () => {
      expect(cache.takes(ORG, 'new_invoice', null)).toBeNull();
      cache.store(cache.readStarted(), new Map([[ORG, []]]));
      expect(cache.takes(ORG, 'new_invoice', null)).toBeNull();
    });
    expect(cache.takes(ORG, 'new_invoice', null)).toBeNull();
    await expect(cache.changeOf(ORG, () => Promise.reject(new Error('rolled back')))).rejects.toThrow('rolled back');
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice', null)).toBe(false);
  });

  it('trusts nothing while the notifications are not heard', () => {
    const cache = new EnabledWebhooks(1_000, () => 0);
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice', null)).toBeNull();
    cache.listeningStarted();
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice', null)).toBe(false);
    cache.listeningLost();
    expect(cache.takes(ORG, 'new_invoice', null)).toBeNull();
  });
});
