/**
 * Rate limiting (spec "Limits" + gaps §1): per API user per minute (default 60); 429 with
 * {"detail": "Request was throttled. Expected available in N seconds."} and Retry-After: N;
 * X-RateLimit-Limit / -Remaining / -Reset on every authenticated response. The window runs on the
 * platform clock, so moving the clock frees the user again without sleeping.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/platform.js';
import { ACCOUNTS, accountInput, expectStatus, usePlatform } from './helpers.js';

const platform = usePlatform();

const THROTTLED = /^Request was throttled\. Expected available in (\d+) seconds?\.$/;

function rateHeaders(response: ApiResponse) {
  return {
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
  };
}

describe('rate limit', () => {
  it('defaults to 60 requests per minute', async () => {
    const { api } = await platform().createOrganization();

    const response = await api.get(ACCOUNTS);

    expectStatus(response, 200);
    expect(rateHeaders(response)).toEqual({ limit: '60', remaining: '59', reset: expect.stringMatching(/^\d+$/) });
  });

  it('counts down on every response and answers 429 once the limit is used up', async () => {
    const { api } = await platform().createOrganization({ rate_limit_per_minute: 3 });

    const allowed: ApiResponse[] = [];
    for (let i = 0; i < 3; i += 1) allowed.push(await api.get(ACCOUNTS));
    const throttled = await api.get(ACCOUNTS);

    for (const response of allowed) expectStatus(response, 200);
    expect(allowed.map((response) => rateHeaders(response).remaining)).toEqual(['2', '1', '0']);
    for (const response of allowed) {
      expect(rateHeaders(response)).toMatchObject({ limit: '3', reset: expect.stringMatching(/^\d+$/) });
    }

    expectStatus(throttled, 429);
    expect(Object.keys(throttled.body)).toEqual(['detail']);
    const match = THROTTLED.exec(throttled.body.detail);
    expect(match, `unexpected detail: ${throttled.body.detail}`).not.toBeNull();
    const seconds = Number(match![1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(throttled.headers.get('retry-after')).toBe(String(seconds));
    expect(rateHeaders(throttled)).toEqual({ limit: '3', remaining: '0', reset: expect.stringMatching(/^\d+$/) });
    expect(throttled.headers.get('x-request-id')).toMatch(/\S+/);
  });

  it('throttles writes too, and a throttled write changes nothing', async () => {
    const { api } = await platform().createOrganization({ rate_limit_per_minute: 2 });
    expectStatus(await api.post(ACCOUNTS, accountInput('rl-1')), 201);
    expectStatus(await api.get(ACCOUNTS), 200);

    const throttled = await api.post(ACCOUNTS, accountInput('rl-2'));

    expectStatus(throttled, 429);
    expect(throttled.body.detail).toMatch(THROTTLED);
    platform().clock.advanceSeconds(61);
    const list = await api.get(ACCOUNTS);
    expectStatus(list, 200);
    expect(list.body.results.map((account: { code: string }) => account.code)).toEqual(['rl-1']);
  });

  it('frees the user again after Retry-After seconds on the platform clock', async () => {
    const { api } = await platform().createOrganization({ rate_limit_per_minute: 2 });
    await api.get(ACCOUNTS);
    await api.get(ACCOUNTS);
    const throttled = await api.get(ACCOUNTS);
    expectStatus(throttled, 429);
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);

    platform().clock.advanceSeconds(retryAfter);

    const response = await api.get(ACCOUNTS);
    expectStatus(response, 200);
    expect(rateHeaders(response)).toMatchObject({ limit: '2', remaining: '1' });
  });

  it('is counted per API user: another token of the same organization has its own budget', async () => {
    const organization = await platform().createOrganization({ rate_limit_per_minute: 1 });
    expectStatus(await organization.api.get(ACCOUNTS), 200);
    expectStatus(await organization.api.get(ACCOUNTS), 429);

    const second = await platform().createToken(organization.organizationId);
    const response = await second.api.get(ACCOUNTS);

    expectStatus(response, 200);
    expect(rateHeaders(response)).toMatchObject({ limit: '1', remaining: '0' });
    expectStatus(await organization.api.get(ACCOUNTS), 429);
  });

  it('does not affect other organizations', async () => {
    const busy = await platform().createOrganization({ rate_limit_per_minute: 1 });
    const quiet = await platform().createOrganization({ rate_limit_per_minute: 1 });
    expectStatus(await busy.api.get(ACCOUNTS), 200);
    expectStatus(await busy.api.get(ACCOUNTS), 429);

    expectStatus(await quiet.api.get(ACCOUNTS), 200);
  });
});
