import { isUtf8 } from 'node:buffer';
import express, { type Request, type Response } from 'express';
import {
  detailError,
  type HttpError,
  malformedJson,
  payloadTooLarge,
  unsupportedMediaType,
} from './errors/http-error.js';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Reads a write request's JSON body: undefined when there is none, else the parsed value. */
export type JsonBodyReader = (req: Request, res: Response) => Promise<unknown>;

/**
 * The gateway speaks JSON only. A write that carries a body must say `application/json`
 * (charset allowed), or it is 415; bodies over the limit are 413 (refused from Content-Length
 * before reading when possible); malformed JSON is 400 `JSON parse error - ...` as in DRF.
 * Any JSON value is accepted here; the route's schema decides what shape it must have.
 */
export function createJsonBodyReader(limitBytes: number = DEFAULT_BODY_LIMIT_BYTES): JsonBodyReader {
  const parser = express.json({ limit: limitBytes, strict: false, type: () => true, verify: refuseInvalidUtf8 });
  return async (req, res) => {
    if (!hasBody(req)) return undefined;
    const contentType = req.get('Content-Type') ?? '';
    if (!isJsonMediaType(contentType)) throw unsupportedMediaType(contentType);
    await new Promise<void>((resolve, reject) => {
      parser(req, res, (error?: unknown) => (error ? reject(bodyError(error, contentType, limitBytes)) : resolve()));
    });
    return req.body;
  };
}

const INVALID_UTF8 = 'Invalid UTF-8 in the request body.';

/**
 * Bytes that are not UTF-8 would be decoded to U+FFFD and stored so, silently; DRF's parser fails
 * on them with a JSON parse error, and so do we.
 */
function refuseInvalidUtf8(_req: unknown, _res: unknown, buffer: Buffer, encoding: string): void {
  if (encoding.toLowerCase() === 'utf-8' && !isUtf8(buffer)) throw new Error(INVALID_UTF8);
}

/** Like DRF: an empty body (no Content-Length, or 0) is no body, whatever its content type. */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

function isJsonMediaType(contentType: string): boolean {
  return contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** body-parser tells what went wrong in `type`; each kind has its REST answer. */
function bodyError(error: unknown, contentType: string, limitBytes: number): HttpError | unknown {
  const type = (error as { type?: unknown }).type;
  switch (type) {
    case 'entity.too.large':
      return payloadTooLarge(limitBytes);
    case 'entity.parse.failed':
      return malformedJson((error as Error).message);
    case 'entity.verify.failed':
      return malformedJson(INVALID_UTF8);
    case 'charset.unsupported':
      return unsupportedMediaType(contentType);
    case 'encoding.unsupported':
      return detailError(415, `Unsupported content encoding "${(error as { encoding?: string }).encoding}".`);
    case 'request.size.invalid':
      return detailError(400, 'Request body length does not match Content-Length.');
    case 'request.aborted':
      return detailError(400, 'Request body was not received completely.');
    default:
      return error;
  }
}
