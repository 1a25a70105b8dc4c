import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request } from 'express';

/**
 * The customer's self-service session: its token in a cookie the page cannot read (HttpOnly), sent
 * only to the self-service pages, ending with the browser session (the accounts service ends it
 * two hours after sign-in anyway). SameSite=Lax, not Strict: a customer returning from a gateway's
 * hosted card page is a navigation from another site and must still be signed in; the writes are
 * POSTs, which Lax never sends from other sites, and they check Origin too.
 */
export const SELF_SERVICE_COOKIE = 'billing_self_service';
const COOKIE_PATH = '/self-service/';

export function selfServiceSessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined || !header.includes(SELF_SERVICE_COOKIE)) return undefined;
  const token = parseCookie(header)[SELF_SERVICE_COOKIE];
  return token === undefined || token === '' ? undefined : token;
}

export function selfServiceCookie(token: string, secure: boolean): string {
  return stringifySetCookie({
    name: SELF_SERVICE_COOKIE,
    value: token,
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure,
  });
}

export function clearedSelfServiceCookie(secure: boolean): string {
  return stringifySetCookie({
    name: SELF_SERVICE_COOKIE,
    value: '',
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: new Date(0),
  });
}
