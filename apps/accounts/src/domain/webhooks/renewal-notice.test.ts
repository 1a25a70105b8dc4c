import { describe, expect, it } from 'vitest';
import { renewalNoticeId } from './renewal-notice.js';

const SUBSCRIPTION = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('renewal notices', () => {
  it('have one id per subscription and renewal, shaped as a UUID', () => {
    const april = renewalNoticeId(SUBSCRIPTION, new Date('2026-04-01T10:00:00Z'));
    expect(april).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(renewalNoticeId(SUBSCRIPTION, new Date('2026-04-01T10:00:00Z'))).toBe(april);
    expect(renewalNoticeId(SUBSCRIPTION, new Date('2026-05-01T10:00:00Z'))).not.toBe(april);
    expect(renewalNoticeId('0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f', new Date('2026-04-01T10:00:00Z'))).not.toBe(april);
  });
});
