import type { Request, Response } from 'express';
import type { HttpLogger } from '../http-logger.js';
import { requestIdOf } from '../request-state.js';
import { sendJson } from '../response/send-json.js';
import { type ErrorMappingOptions, toHttpError } from './to-http-error.js';

/** Maps an error (once, via toHttpError), logs the faults, and sends the answer. */
export function sendError(
  req: Request,
  res: Response,
  error: unknown,
  logger: HttpLogger,
  options: Partial<Omit<ErrorMappingOptions, 'requestId'>> = {},
): void {
  const httpError = toHttpError(error, {
    requestId: requestIdOf(req),
    refusalBodyKey: options.refusalBodyKey ?? 'detail',
    input: options.input,
  });
  if (httpError.status === 500) logger.error({ err: error }, 'request failed');
  else if (httpError.status === 503) logger.warn({ err: error }, 'a backing service is unavailable');

  if (res.headersSent) {
    // Part of a response is already out; the only honest signal left is a broken connection.
    res.destroy();
    return;
  }
  res.set(httpError.headers);
  sendJson(req, res, httpError.status, httpError.body);
}
