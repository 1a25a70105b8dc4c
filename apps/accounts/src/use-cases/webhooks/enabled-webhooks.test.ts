import { describe, expect, it } from 'vitest';
import { EnabledWebhooks } from './enabled-webhooks.js';

const ORG = '6f1c1f0e-8a61-4c1b-9d8e-2f3a4b5c6d7e';

function listening(ttlMs = 1_000) {
  let time = 0;
  const cache = new EnabledWebhooks(ttlMs, () => time);
  cache.listeningStarted();
  return { cache, advance: (ms: number) => (time += ms) };
}

describe('EnabledWebhooks', () => {
  it('knows what a read found, per public event, until the entry expires', () => {
    const { cache, advance } = listening();
    expect(cache.takes(ORG, 'new_invoice')).toBeNull();
    cache.store(cache.readStarted(), new Map([[ORG.toUpperCase(), [{ events: ['paid_invoice'] }]]]));
    expect(cache.takes(ORG, 'new_invoice')).toBe(false);
    expect(cache.takes(ORG, 'paid_invoice')).toBe(true);
    advance(1_000);
    expect(cache.takes(ORG, 'paid_invoice')).toBe(true);
    advance(1);
    expect(cache.takes(ORG, 'paid_invoice')).toBeNull();
  });

  it('does not store a read that a change overtook', () => {
    const { cache } = listening();
    const generation = cache.readStarted();
    cache.invalidate('another organization');
    cache.store(generation, new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice')).toBeNull();
  });

  it("knows nothing of an organization while this process's change is in flight", async () => {
    const { cache } = listening();
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    await cache.changeOf(ORG, async () => {
      expect(cache.takes(ORG, 'new_invoice')).toBeNull();
      cache.store(cache.readStarted(), new Map([[ORG, []]]));
      expect(cache.takes(ORG, 'new_invoice')).toBeNull();
    });
    expect(cache.takes(ORG, 'new_invoice')).toBeNull();
    await expect(cache.changeOf(ORG, () => Promise.reject(new Error('rolled back')))).rejects.toThrow('rolled back');
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice')).toBe(false);
  });

  it('trusts nothing while the notifications are not heard', () => {
    const cache = new EnabledWebhooks(1_000, () => 0);
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice')).toBeNull();
    cache.listeningStarted();
    cache.store(cache.readStarted(), new Map([[ORG, []]]));
    expect(cache.takes(ORG, 'new_invoice')).toBe(false);
    cache.listeningLost();
    expect(cache.takes(ORG, 'new_invoice')).toBeNull();
  });
});
