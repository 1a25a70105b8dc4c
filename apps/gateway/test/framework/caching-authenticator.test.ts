import { TestClock } from '@billing/clock';
import { describe, expect, it } from 'vitest';
import { type Authenticator, CachingAuthenticator, type Principal } from '../../src/http/index.js';
import { ACME, ACME_TOKEN, DISABLED_TOKEN, FakeAuthenticator } from './support/fake-authenticator.js';

const TTL_MS = 30_000;

function setup() {
  const clock = new TestClock('2026-01-15T10:00:00Z');
  const inner = new FakeAuthenticator();
  return { clock, inner, cache: new CachingAuthenticator(inner, clock, TTL_MS) };
}

describe('CachingAuthenticator', () => {
  it('asks the inner authenticator once per token within the TTL', async () => {
    const { clock, inner, cache } = setup();

    expect(await cache.authenticate(ACME_TOKEN)).toEqual(ACME);
    clock.advanceMs(TTL_MS - 1);
    expect(await cache.authenticate(ACME_TOKEN)).toEqual(ACME);

    expect(inner.calls).toBe(1);
  });

  it('asks again once the TTL has passed', async () => {
    const { clock, inner, cache } = setup();

    await cache.authenticate(ACME_TOKEN);
    clock.advanceMs(TTL_MS);
    await cache.authenticate(ACME_TOKEN);

    expect(inner.calls).toBe(2);
  });

  it('caches "no such token" too, for the same TTL', async () => {
    const { clock, inner, cache } = setup();

    expect(await cache.authenticate(DISABLED_TOKEN)).toBeNull();
    expect(await cache.authenticate(DISABLED_TOKEN)).toBeNull();
    expect(inner.calls).toBe(1);

    clock.advanceMs(TTL_MS);
    expect(await cache.authenticate(DISABLED_TOKEN)).toBeNull();
    expect(inner.calls).toBe(2);
  });

  it('keeps tokens apart', async () => {
    const { inner, cache } = setup();

    expect(await cache.authenticate(ACME_TOKEN)).toEqual(ACME);
    expect(await cache.authenticate(DISABLED_TOKEN)).toBeNull();
    expect(await cache.authenticate('unknown')).toBeNull();

    expect(inner.calls).toBe(3);
  });

  it('shares one inner call between concurrent lookups of a token', async () => {
    const { inner, cache } = setup();

    const results = await Promise.all([1, 2, 3].map(() => cache.authenticate(ACME_TOKEN)));

    expect(results).toEqual([ACME, ACME, ACME]);
    expect(inner.calls).toBe(1);
  });

  it('does not cache failures', async () => {
    const clock = new TestClock();
    let calls = 0;
    const flaky: Authenticator = {
      authenticate: async (): Promise<Principal | null> => {
        calls++;
        if (calls === 1) throw new Error('identity service down');
        return ACME;
      },
    };
    const cache = new CachingAuthenticator(flaky, clock, TTL_MS);

    await expect(cache.authenticate(ACME_TOKEN)).rejects.toThrow('identity service down');
    expect(await cache.authenticate(ACME_TOKEN)).toEqual(ACME);
    expect(calls).toBe(2);
  });

  it('forgets the oldest entry when full', async () => {
    const clock = new TestClock();
    const inner = new FakeAuthenticator();
    const cache = new CachingAuthenticator(inner, clock, TTL_MS, 2);

    await cache.authenticate('a');
    await cache.authenticate('b');
    await cache.authenticate('c');
    await cache.authenticate('c');
    await cache.authenticate('b');
    await cache.authenticate('a');

    expect(inner.calls).toBe(4);
  });
});
