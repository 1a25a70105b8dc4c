import type { Clock } from '@billing/clock';
import type { Request, Response } from 'express';
import {
  checkIdempotencyKey,
  IDEMPOTENCY_HEADER,
  isReplayableStatus,
  requestFingerprint,
  type StoredIdempotencyKey,
  type StoredResponse,
} from '../../idempotency/idempotency-rules.js';
import type { ClaimResult, IdempotencyStore } from '../../idempotency/idempotency-store.js';
import type { Principal } from '../auth/principal.js';
import { detailError, serviceUnavailable, validationFailed } from '../errors/http-error.js';
import type { HttpLogger } from '../http-logger.js';
import { requestIdOf } from '../request-state.js';
import { finishRecording, startRecording } from '../response/answer-recorder.js';

export interface IdempotencyDependencies {
  /** Null only in apps built without one (framework tests of other concerns): the header is then ignored. */
  idempotencyStore: IdempotencyStore | null;
  clock: Clock;
  logger: HttpLogger;
}

export const KEY_IN_USE =
  'A request with this Idempotency-Key is still being processed. Retry once it has been answered.';
export const KEY_REUSED =
  'This Idempotency-Key was used with another request (method, path or body). Use a new key for a new request.';

/**
 * The checked `Idempotency-Key` of an authenticated POST, or null when it sends none (or the route
 * takes no token: keys are kept per organization). A blank key or one over 255 characters is 400
 * naming the header.
 */
export function idempotencyKeyOf(
  req: Request,
  principal: Principal | null,
  dependencies: IdempotencyDependencies,
): string | null {
  if (req.method !== 'POST' || principal === null || dependencies.idempotencyStore === null) return null;
  const value = req.get(IDEMPOTENCY_HEADER);
  if (value === undefined) return null;
  const checked = checkIdempotencyKey(value);
  if ('error' in checked) throw validationFailed({ [IDEMPOTENCY_HEADER]: [checked.error] });
  return checked.key;
}

/**
 * Answers a keyed request: replays the key's stored answer, refuses (409 while the key's first
 * request runs, 422 for another request), or claims the key, runs `respond` (which writes the
 * answer, errors included) and stores its answer before it is sent, or releases the key when the
 * answer asks for a retry. Runs after the body is read and validated: a request refused before
 * that never touches the key, so the client can correct it and retry with the same key.
 */
export async function answerIdempotently(
  req: Request,
  res: Response,
  keyed: { key: string; organizationId: string; rawBody: unknown },
  dependencies: IdempotencyDependencies & { idempotencyStore: IdempotencyStore },
  respond: () => Promise<void>,
): Promise<void> {
  const store = dependencies.idempotencyStore;
  const requestId = requestIdOf(req);
  let result: ClaimResult;
  try {
    result = await store.claim({
      organizationId: keyed.organizationId,
      key: keyed.key,
      fingerprint: requestFingerprint(req.method, req.originalUrl, keyed.rawBody),
      requestId,
      now: dependencies.clock.now(),
    });
  } catch (error) {
    // Running the request unguarded could repeat what the key exists to prevent.
    dependencies.logger.error({ err: error }, 'idempotency store unavailable; keyed request refused');
    throw serviceUnavailable(requestId);
  }
  if (result.kind === 'replay') {
    sendReplay(res, result.stored);
    return;
  }
  if (result.kind === 'running') throw detailError(409, KEY_IN_USE);
  if (result.kind === 'mismatch') throw detailError(422, KEY_REUSED);

  const { claim } = result;
  startRecording(req);
  try {
    await respond();
  } finally {
    const { answer, send } = finishRecording(req);
    try {
      if (answer && isReplayableStatus(answer.status)) await store.complete(claim, answer);
      else await store.release(claim);
    } catch (error) {
      // The answer is still sent; the claim runs out after its lease and a retry runs afresh.
      dependencies.logger.error({ err: error }, 'idempotency key could not be settled');
    }
    send();
  }
}

/** The stored answer as first sent, marked as a replay and naming the request that made it (Stripe's headers). */
function sendReplay(res: Response, stored: StoredIdempotencyKey & { response: StoredResponse }): void {
  const { response } = stored;
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.contentType !== null) res.setHeader('Content-Type', response.contentType);
  res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('Original-Request', stored.requestId);
  if (response.body === null) {
    res.end();
    return;
  }
  res.setHeader('Content-Length', Buffer.byteLength(response.body));
  res.end(response.body);
}
