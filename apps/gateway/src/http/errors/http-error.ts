/**
 * An error that already knows its REST answer: status, JSON body and extra headers. Everything
 * the gateway refuses ends as one of these, so the response writer has a single shape to send.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(`HTTP ${status}`);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/** `{"detail": message}`: DRF's body for every refusal that is not about one field. */
export function detailError(status: number, detail: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, { detail }, headers);
}

// The wording below is DRF's (or the contract's, spec/gaps.md §1), so integrators used to DRF
// style APIs can match on it.

export const notFound = (): HttpError => detailError(404, 'Not found.');

export const invalidToken = (): HttpError => detailError(401, 'Invalid token.', { 'WWW-Authenticate': 'Token' });

export const clientSystemRequired = (): HttpError =>
  detailError(401, 'X-Client-System header is required.', { 'WWW-Authenticate': 'Token' });

export const permissionDenied = (): HttpError => detailError(403, 'You do not have permission to perform this action.');

export const methodNotAllowed = (method: string, allowed: readonly string[]): HttpError =>
  detailError(405, `Method "${method}" not allowed.`, { Allow: allowed.join(', ') });

export const urlMustEndWithSlash = (path: string): HttpError => detailError(404, `URL must end with a slash: ${path}/`);

export const unsupportedMediaType = (contentType: string): HttpError =>
  detailError(415, `Unsupported media type "${contentType}" in request.`);

export const payloadTooLarge = (limitBytes: number): HttpError =>
  detailError(413, `Request body is larger than the limit of ${limitBytes} bytes.`);

export const malformedJson = (reason: string): HttpError => detailError(400, `JSON parse error - ${reason}`);

export const invalidPage = (): HttpError => detailError(404, 'Invalid page.');

/** DRF pluralises the wait ("1 second." / "2 seconds."), and so do we. */
export const throttled = (retryAfterSeconds: number): HttpError =>
  detailError(
    429,
    `Request was throttled. Expected available in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`,
    { 'Retry-After': String(retryAfterSeconds) },
  );

export const internalServerError = (requestId: string): HttpError =>
  new HttpError(500, { detail: 'Internal server error.', request_id: requestId });

export const serviceUnavailable = (requestId: string): HttpError =>
  new HttpError(503, { detail: 'Service temporarily unavailable.', request_id: requestId });

/** A DRF validation body: `{"field": ["message"]}`, nested objects, or a list for list bodies. */
export const validationFailed = (body: unknown): HttpError => new HttpError(400, body);
