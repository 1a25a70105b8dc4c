import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request } from 'express';

/**
 * The browsable view's session: the API token the browser signed in with, in a cookie the page's
 * scripts cannot read (HttpOnly), that other sites' pages never send (SameSite=Strict), ending
 * with the browser session (no expiry), Secure over HTTPS. The gateway reads it only for GETs
 * that are answered in HTML (docs/api.md "The browsable view").
 */
export const SESSION_COOKIE = 'billing_browsable_token';

/** The client system requests signed in by the cookie are recorded with (gaps.md §13). */
export const BROWSABLE_CLIENT_SYSTEM = 'browsable-api';

export function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined || !header.includes(SESSION_COOKIE)) return undefined;
  const token = parseCookie(header)[SESSION_COOKIE];
  return token === undefined || token === '' ? undefined : token;
}

export function sessionCookie(token: string, secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
  });
}

export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: '',
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    expires: new Date(0),
  });
}
