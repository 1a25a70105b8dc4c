/**
 * The organization's time zone and (test mode) time: authentication puts them on the request
 * context, which every gRPC call carries as metadata, and a test-mode answer is never cached.
 */
import { TestClock } from '@billing/clock';
import { describe, expect, it } from 'vitest';
import { CachingAuthenticator, type Principal } from '../../src/http/index.js';
import { ACME, ACME_TOKEN, FakeAuthenticator } from './support/fake-authenticator.js';
import { startWidgetApp } from './support/widget-app.js';

const ON_REAL_CLOCK: Principal = { ...ACME, organizationTimeZone: 'America/New_York' };
const IN_TEST_MODE: Principal = {
  ...ACME,
  organizationTimeZone: 'Europe/Copenhagen',
  organizationTime: '2026-03-01T10:00:00.000Z',
};

async function contextFor(principal: Principal) {
  const app = await startWidgetApp({ authenticator: new FakeAuthenticator(principal) });
  try {
    const response = await app.request('GET', '/api/v1/widgets/context/', { headers: { 'X-Request-ID': 'req-tz' } });
    expect(response.status).toBe(200);
    return response.body as { context: Record<string, unknown>; fromStorage: Record<string, unknown> };
  } finally {
    await app.close();
  }
}

describe('request context', () => {
  it('carries the time zone of an organization on the real clock, and no time', async () => {
    const { context, fromStorage } = await contextFor(ON_REAL_CLOCK);

    const expected = {
      requestId: 'req-tz',
      clientSystem: 'framework-tests',
      organizationId: 'org-acme',
      apiUserId: 'api-user-acme',
      organizationTimeZone: 'America/New_York',
    };
    expect(context).toEqual(expected);
    expect(fromStorage).toEqual(expected);
  });

  it("carries a test-mode organization's time zone and test clock time", async () => {
    const { context } = await contextFor(IN_TEST_MODE);

    expect(context).toEqual({
      requestId: 'req-tz',
      clientSystem: 'framework-tests',
      organizationId: 'org-acme',
      apiUserId: 'api-user-acme',
      organizationTimeZone: 'Europe/Copenhagen',
      organizationTime: '2026-03-01T10:00:00.000Z',
    });
  });
});

describe('CachingAuthenticator and test mode', () => {
  const TTL_MS = 30_000;

  it('asks again for every request of a test-mode organization: its clock may have moved', async () => {
    const inner = new FakeAuthenticator(IN_TEST_MODE);
    const cache = new CachingAuthenticator(inner, new TestClock('2026-01-15T10:00:00Z'), TTL_MS);

    expect(await cache.authenticate(ACME_TOKEN)).toEqual(IN_TEST_MODE);
    expect(await cache.authenticate(ACME_TOKEN)).toEqual(IN_TEST_MODE);
    expect(await cache.authenticate(ACME_TOKEN)).toEqual(IN_TEST_MODE);

    expect(inner.calls).toBe(3);
  });

  it('still caches an organization on the real clock, time zone included', async () => {
    const inner = new FakeAuthenticator(ON_REAL_CLOCK);
    const cache = new CachingAuthenticator(inner, new TestClock('2026-01-15T10:00:00Z'), TTL_MS);

    expect(await cache.authenticate(ACME_TOKEN)).toEqual(ON_REAL_CLOCK);
    expect(await cache.authenticate(ACME_TOKEN)).toEqual(ON_REAL_CLOCK);

    expect(inner.calls).toBe(1);
  });

  it('shares one call between concurrent lookups of a test-mode token, without keeping it', async () => {
    const inner = new FakeAuthenticator(IN_TEST_MODE);
    const cache = new CachingAuthenticator(inner, new TestClock('2026-01-15T10:00:00Z'), TTL_MS);

    await Promise.all([1, 2, 3].map(() => cache.authenticate(ACME_TOKEN)));
    expect(inner.calls).toBe(1);
    await cache.authenticate(ACME_TOKEN);
    expect(inner.calls).toBe(2);
  });
});
