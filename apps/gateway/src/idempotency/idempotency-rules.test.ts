import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  checkIdempotencyKey,
  decideClaim,
  isReplayableStatus,
  requestFingerprint,
  type StoredIdempotencyKey,
} from './idempotency-rules.js';

const NOW = new Date('2026-01-15T09:00:00Z');
const at = (iso: string) => new Date(iso);

function row(overrides: Partial<StoredIdempotencyKey> = {}): StoredIdempotencyKey {
  return {
    fingerprint: 'f1',
    requestId: 'r1',
    startedAt: at('2026-01-15T08:59:00Z'),
    expiresAt: at('2026-01-16T08:59:00Z'),
    response: null,
    ...overrides,
  };
}

describe('idempotency rules', () => {
  it('takes keys of 1 to 255 characters', () => {
    expect(checkIdempotencyKey('k'.repeat(255))).toEqual({ key: 'k'.repeat(255) });
    expect(checkIdempotencyKey('k'.repeat(256))).toEqual({
      error: 'Ensure this field has no more than 255 characters.',
    });
    expect(checkIdempotencyKey('  ')).toEqual({ error: 'This field may not be blank.' });
  });

  it('writes JSON with sorted object keys at every depth, arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('fingerprints method, path with query and body; key order does not matter', () => {
    const base = requestFingerprint('POST', '/api/v1/accounts/', { code: 'a', legal_country: 'DK' });
    expect(requestFingerprint('post', '/api/v1/accounts/', { legal_country: 'DK', code: 'a' })).toBe(base);
    expect(requestFingerprint('POST', '/api/v1/accounts/', { code: 'b', legal_country: 'DK' })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/plans/', { code: 'a', legal_country: 'DK' })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/accounts/?x=1', { code: 'a', legal_country: 'DK' })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/accounts/', undefined)).not.toBe(
      requestFingerprint('POST', '/api/v1/accounts/', {}),
    );
  });

  it('keeps every answer but those asking for a retry (409, 429, 5xx)', () => {
    expect([200, 201, 202, 204, 400, 403, 404, 422].map(isReplayableStatus)).toEqual(Array(8).fill(true));
    expect([409, 429, 500, 502, 503].map(isReplayableStatus)).toEqual(Array(5).fill(false));
  });

  it('claims a key that is free, expired, or abandoned by its running request past the lease', () => {
    expect(decideClaim(null, 'f1', NOW)).toEqual({ kind: 'claim' });
    expect(decideClaim(row({ expiresAt: NOW, fingerprint: 'other' }), 'f1', NOW)).toEqual({ kind: 'claim' });
    expect(decideClaim(row({ startedAt: at('2026-01-15T08:58:00Z') }), 'f1', NOW)).toEqual({ kind: 'claim' });
  });

  it('replays a stored answer, refuses a running one (409) and another request (422)', () => {
    const response = { status: 201, headers: {}, contentType: 'application/json; charset=utf-8', body: '{}' };
    expect(decideClaim(row({ response }), 'f1', NOW)).toMatchObject({ kind: 'replay', stored: { response } });
    expect(decideClaim(row({ startedAt: at('2026-01-15T08:58:00.001Z') }), 'f1', NOW)).toEqual({ kind: 'running' });
    expect(decideClaim(row(), 'f2', NOW)).toEqual({ kind: 'mismatch' });
    expect(decideClaim(row({ response }), 'f2', NOW)).toEqual({ kind: 'mismatch' });
    // Another request is 422 even once the first request's claim is past its lease.
    expect(decideClaim(row({ startedAt: at('2026-01-15T08:00:00Z') }), 'f2', NOW)).toEqual({ kind: 'mismatch' });
  });
});
