import type { Request, Response } from 'express';
import type { StoredResponse } from '../../idempotency/idempotency-rules.js';

/**
 * Holds back the answer to a request that claimed an idempotency key until the answer is stored:
 * a client that retries the moment it reads the answer must find it replayable, not still running
 * (409). The writers (sendJson, the 204 and explicit answers) hand their last step to writeAnswer;
 * an answer that cannot be kept (a stream, bytes) is written at once and marked unrecordable, and
 * nothing is stored for it.
 */
interface Recording {
  answer: StoredResponse | 'unrecordable' | null;
  /** The held last step of the writer (ends the response). */
  send: (() => void) | null;
}

const recordings = new WeakMap<Request, Recording>();

/** Headers that belong to this exchange, not to the answer: a replay sends its own. */
const EXCHANGE_HEADERS = new Set([
  'content-type',
  'content-length',
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

export function startRecording(req: Request): void {
  recordings.set(req, { answer: null, send: null });
}

/**
 * Ends the response with `send`, at once when nobody records this request; else the answer (status
 * and headers as set on `res`, `body` as sent, null for none) is kept and `send` waits for
 * finishRecording's caller.
 */
export function writeAnswer(req: Request, res: Response, body: string | null, send: () => void): void {
  const recording = recordings.get(req);
  if (!recording || recording.answer !== null) {
    send();
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || EXCHANGE_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  const contentType = res.getHeader('Content-Type');
  recording.answer = {
    status: res.statusCode,
    headers,
    contentType: contentType === undefined ? null : String(contentType),
    body,
  };
  recording.send = send;
}

/** For writers whose answer cannot be kept: they write at once, and nothing is stored. */
export function markUnrecordable(req: Request): void {
  const recording = recordings.get(req);
  if (recording) recording.answer = 'unrecordable';
}

/**
 * Stops recording; returns the answer (null when none was written or it could not be kept) and a
 * function that sends the held answer (does nothing when nothing is held).
 */
export function finishRecording(req: Request): { answer: StoredResponse | null; send: () => void } {
  const recording = recordings.get(req);
  recordings.delete(req);
  const answer = recording?.answer;
  return {
    answer: answer === 'unrecordable' || answer === undefined ? null : answer,
    send: recording?.send ?? (() => {}),
  };
}
