import express, { type Request, type Router } from 'express';
import type { Authenticator } from '../auth/authenticator.js';
import { invalidToken, permissionDenied } from '../errors/http-error.js';
import { sendError } from '../errors/send-error.js';
import type { HttpLogger } from '../http-logger.js';
import { requestState } from '../request-state.js';
import { API_ROOT } from './api-root.js';
import { SIGN_IN_PATH, SIGN_OUT_PATH } from './browsable-page.js';
import type { BrowsableView } from './browsable-view.js';
import { clearedSessionCookie, sessionCookie } from './session-cookie.js';

/** Where to return after signing in or out: a path on this host, else the API root. */
function returnPath(value: unknown): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')
    ? value
    : API_ROOT;
}

/**
 * A form sent from another site (its Origin is not ours) is refused: it could sign a browser in
 * with someone else's token, or out. Browsers send Origin with every form POST.
 */
function fromThisSite(req: Request): boolean {
  const origin = req.get('Origin');
  return origin === undefined || origin === `${req.protocol}://${req.get('Host')}`;
}

/** The token as typed: alone, or with the `Token ` keyword the API's header uses. */
function typedToken(value: unknown): string | null {
  const token = typeof value === 'string' ? value.trim().replace(/^Token\s+/i, '') : '';
  return /^[\x21-\x7e]{1,256}$/.test(token) && !/[;,"\\]/.test(token) ? token : null;
}

/**
 * The browsable view's sign-in and sign-out forms (POST, form-encoded): signing in checks the
 * token as any request's, then keeps it in the session cookie and returns to the page it came
 * from (303); an unknown token is the 401 page with the form again. Answers are pages.
 */
export function mountSessionRoutes(
  router: Router,
  view: BrowsableView,
  authenticator: Authenticator,
  logger: HttpLogger,
): void {
  const asPage = (template: string) => (req: Request, _res: unknown, next: () => void) => {
    const state = requestState(req);
    state.route = template;
    state.browsable = view;
    next();
  };
  const form = express.urlencoded({ extended: false, limit: '4kb' });

  router.post(SIGN_IN_PATH, asPage(SIGN_IN_PATH), form, async (req, res) => {
    try {
      // The page of a refusal offers the form again, returning where the first one would have.
      res.locals.returnTo = returnPath(req.body?.next);
      if (!fromThisSite(req)) throw permissionDenied();
      const token = typedToken(req.body?.token);
      if (token === null || (await authenticator.authenticate(token)) === null) throw invalidToken();
      res.setHeader('Set-Cookie', sessionCookie(token, req.secure));
      res.redirect(303, res.locals.returnTo);
    } catch (error) {
      sendError(req, res, error, logger);
    }
  });

  router.post(SIGN_OUT_PATH, asPage(SIGN_OUT_PATH), form, (req, res) => {
    if (!fromThisSite(req)) {
      sendError(req, res, permissionDenied(), logger);
      return;
    }
    res.setHeader('Set-Cookie', clearedSessionCookie(req.secure));
    res.redirect(303, returnPath(req.body?.next));
  });
}
