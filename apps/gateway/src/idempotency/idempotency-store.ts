import type { StoredIdempotencyKey, StoredResponse } from './idempotency-rules.js';

export interface IdempotencyClaimRequest {
  organizationId: string;
  key: string;
  fingerprint: string;
  requestId: string;
  /** The gateway's clock. */
  now: Date;
}

/** A key this request holds until it completes or releases it. */
export interface IdempotencyClaim {
  organizationId: string;
  key: string;
  /** Whose claim it is: only its holder completes or releases it (a taken-over claim is not ours). */
  token: string;
}

export type ClaimResult =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'replay'; stored: StoredIdempotencyKey & { response: StoredResponse } }
  | { kind: 'running' }
  | { kind: 'mismatch' };

/** Where keys, their claims and their answers live; shared by every gateway replica. */
export interface IdempotencyStore {
  claim(request: IdempotencyClaimRequest): Promise<ClaimResult>;
  /** Keeps the answer for replay. */
  complete(claim: IdempotencyClaim, response: StoredResponse): Promise<void>;
  /** Forgets the claim: the next request with the key runs afresh. */
  release(claim: IdempotencyClaim): Promise<void>;
}
