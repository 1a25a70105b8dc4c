import { describe, expect, it } from 'vitest';
import { acceptOrCreateRequestId, currentContext, runWithContext } from './request-context.js';

describe('request context', () => {
  it('is visible inside async work started within it', async () => {
    const seen = await runWithContext({ requestId: 'req-1', organizationId: 'org-1' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentContext();
    });
    expect(seen).toEqual({ requestId: 'req-1', organizationId: 'org-1' });
    expect(currentContext()).toBeUndefined();
  });

  it('keeps safe request ids and replaces unsafe ones', () => {
    expect(acceptOrCreateRequestId('abc-123')).toBe('abc-123');
    expect(acceptOrCreateRequestId('bad id\n')).toMatch(/^[0-9a-f-]{36}$/);
    expect(acceptOrCreateRequestId(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
