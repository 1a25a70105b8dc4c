import { createHash } from 'node:crypto';

/**
 * Idempotency keys (docs/api.md "Idempotency keys"), Stripe's semantics: the first answer to a POST
 * is kept per organization and key for 24 hours and replayed to retries of the same request.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Stripe's limit. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long an answer is replayed, on the gateway's clock (real time, as Stripe: not an organization's test clock). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still running after this long was left by a replica that died mid-request (every call it
 * makes has a gRPC deadline of seconds): the next request with the key takes it over instead of
 * being refused with 409 until the key expires.
 */
export const RUNNING_CLAIM_LEASE_MS = 2 * 60 * 1000;

/** The header's value checked: the key, or the field error naming the header. */
export function checkIdempotencyKey(value: string): { key: string } | { error: string } {
  if (value.trim() === '') return { error: 'This field may not be blank.' };
  if (value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return { error: `Ensure this field has no more than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.` };
  }
  return { key: value };
}

/**
 * What "the same request" means: the method, the path with its query, and the body as JSON with
 * object keys sorted (so a client that serialises its fields in another order is still the same
 * request), hashed. No body at all and `{}` differ, as they may answer differently.
 */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  const hash = createHash('sha256');
  hash.update(`${method.toUpperCase()} ${url}\n`);
  hash.update(body === undefined ? '' : canonicalJson(body));
  return hash.digest('hex');
}

/** JSON with every object's keys in code point order; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Which answers are kept for replay. Everything the route answered, errors included (a refused
 * business rule is refused again), except answers that ask the client to try again: 409 (a
 * conflicting concurrent change), 429 and every 5xx (a service was unreachable, timed out or
 * failed). Replaying those would make the retry they ask for pointless; the claim is released and
 * the retry runs the request afresh. Stripe keeps 500s; docs/api.md says why we do not.
 */
export function isReplayableStatus(status: number): boolean {
  return status < 500 && status !== 409 && status !== 429;
}

/** A key's row as the store holds it. */
export interface StoredIdempotencyKey {
  fingerprint: string;
  /** The request that made the claim (replayed as `Original-Request`). */
  requestId: string;
  startedAt: Date;
  expiresAt: Date;
  /** Null while the first request runs. */
  response: StoredResponse | null;
}

export interface StoredResponse {
  status: number;
  /** Headers the answer carried beyond the usual ones (e.g. Location of a started export). */
  headers: Record<string, string>;
  contentType: string | null;
  /** The body as sent; null for an answer without one (204). */
  body: string | null;
}

export type ClaimDecision =
  | { kind: 'claim' }
  | { kind: 'replay'; stored: StoredIdempotencyKey & { response: StoredResponse } }
  | { kind: 'running' }
  | { kind: 'mismatch' };

/**
 * What a request with a key does given the key's current row: claim it (no row, an expired one, or
 * a running claim past its lease), replay its answer, or be refused (409 while the first runs, 422
 * for another request). A different request is 422 even while the first runs, as at Stripe.
 */
export function decideClaim(existing: StoredIdempotencyKey | null, fingerprint: string, now: Date): ClaimDecision {
  if (!existing || existing.expiresAt.getTime() <= now.getTime()) return { kind: 'claim' };
  if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (existing.response) return { kind: 'replay', stored: { ...existing, response: existing.response } };
  if (now.getTime() - existing.startedAt.getTime() >= RUNNING_CLAIM_LEASE_MS) return { kind: 'claim' };
  return { kind: 'running' };
}
