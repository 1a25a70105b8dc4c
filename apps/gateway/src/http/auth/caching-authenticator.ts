import { createHash } from 'node:crypto';
import type { Clock } from '@billing/clock';
import type { Authenticator } from './authenticator.js';
import type { Principal } from './principal.js';

interface CacheEntry {
  principal: Principal | null;
  expiresAt: number;
}

/**
 * Remembers what `inner` said about a token for `ttlMs`, both "this is org X" and "unknown", so
 * the identity service sees one call per token per TTL instead of one per request. The cost: a
 * disabled token keeps working, and a new token keeps failing, for at most one TTL.
 *
 * Entries are keyed by the token's SHA-256, so the cache never holds a usable secret. Concurrent
 * lookups of one token share a single call. Failures are not cached. Time comes from the clock so
 * tests move it past the TTL instead of sleeping.
 *
 * A principal of an organization in test mode (it carries `organizationTime`) is never cached: its
 * clock may be moved at any moment, through any gateway replica, and a cached answer would send
 * services a stale "now". Such tokens cost one identity call per request, which test mode can afford.
 */
export class CachingAuthenticator implements Authenticator {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<Principal | null>>();

  constructor(
    private readonly inner: Authenticator,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  authenticate(token: string): Promise<Principal | null> {
    const key = createHash('sha256').update(token).digest('hex');
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > this.clock.now().getTime()) return Promise.resolve(cached.principal);

    const pending = this.inFlight.get(key);
    if (pending) return pending;

    const lookup = this.inner
      .authenticate(token)
      .then((principal) => {
        if (principal?.organizationTime === undefined) this.remember(key, principal);
        return principal;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, lookup);
    return lookup;
  }

  private remember(key: string, principal: Principal | null): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order, so the first key is the entry written longest ago.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { principal, expiresAt: this.clock.now().getTime() + this.ttlMs });
  }
}
