import type { Request } from 'express';

/**
 * The URL the client used, absolute. Scheme and host come from the connection and Host header,
 * or from X-Forwarded-Proto/-Host when the app's `trustProxy` option trusts the peer (express
 * applies that rule in req.protocol and req.host).
 */
export function absoluteRequestUrl(req: Request): URL {
  const origin = `${req.protocol}://${req.host || 'localhost'}`;
  try {
    return new URL(req.originalUrl, origin);
  } catch {
    // A Host header that is not a host (e.g. with spaces) must not turn a list into a 500.
    return new URL(req.originalUrl, `${req.protocol}://localhost`);
  }
}
