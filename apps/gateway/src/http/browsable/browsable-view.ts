import type { Request, Response } from 'express';
import type { Route } from '../route/route-types.js';
import { renderPage } from './browsable-page.js';
import type { LinkFor } from './json-html.js';
import { sessionToken } from './session-cookie.js';

/**
 * Content Security Policy of every page: no script at all, styles only inline, forms only to this
 * host, never framed. Escaping keeps values from becoming markup; this keeps markup, should one
 * slip through, from running.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A list path's detail route: `/api/v1/accounts/` → `/api/v1/accounts/{code}/` (param `code`). */
interface DetailRoute {
  template: string;
  param: string;
}

/**
 * The browsable read view (gaps.md §13): a GET or HEAD whose Accept prefers text/html over JSON
 * is answered with an HTML page showing the JSON answer, instead of the JSON itself.
 */
export class BrowsableView {
  private readonly details = new Map<string, DetailRoute>();

  constructor(routes: readonly Route[]) {
    const getTemplates = routes
      .filter((route) => route.method === 'get')
      .flatMap((route) => [route.path, ...route.aliases]);
    for (const route of routes.filter((candidate) => candidate.list)) {
      for (const listPath of [route.path, ...route.aliases]) {
        const detail = getTemplates.find(
          (template) => /^\{[A-Za-z_]\w*\}\/$/.test(template.slice(listPath.length)) && template.startsWith(listPath),
        );
        if (detail) this.details.set(listPath, { template: detail, param: detail.slice(listPath.length + 1, -2) });
      }
    }
  }

  /** Whether this request is a browser's read: GET or HEAD, and Accept prefers HTML to JSON. */
  wants(req: Request): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const accept = req.headers.accept;
    // Most API clients send no Accept, */* or JSON: answered without negotiating.
    if (accept === undefined || !accept.includes('text/html')) return false;
    return req.accepts(['application/json', 'text/html']) === 'text/html';
  }

  /** Sends `body`, the answer a JSON client gets with `status`, as a page. */
  send(
    req: Request,
    res: Response,
    status: number,
    body: unknown,
    route: Route | undefined,
    template: string | undefined,
  ): void {
    const page = renderPage({
      status,
      body,
      method: req.method === 'HEAD' ? 'GET' : req.method,
      requestUrl: req.originalUrl,
      returnTo: typeof res.locals.returnTo === 'string' ? res.locals.returnTo : req.originalUrl,
      path: req.path,
      query: req.query as Record<string, unknown>,
      route,
      signedIn: sessionToken(req) !== undefined,
      linkFor: template ? this.detailLinks(req, template) : undefined,
    });
    res.statusCode = status;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    // The page shows the signed-in organization's data: no cache keeps it, none mixes it up with JSON.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Accept, Cookie');
    res.setHeader('Content-Length', Buffer.byteLength(page));
    if (req.method === 'HEAD') res.end();
    else res.end(page);
  }

  /** Each result of a list links its identifying field to its detail page. */
  private detailLinks(req: Request, template: string): LinkFor | undefined {
    const detail = this.details.get(template);
    if (!detail) return undefined;
    const params = req.params as Record<string, string>;
    return (path, value) => {
      const inResults = path.length === 3 && path[0] === 'results' && typeof path[1] === 'number';
      const inList = path.length === 2 && typeof path[0] === 'number';
      if (!(inResults || inList) || path.at(-1) !== detail.param) return undefined;
      return detail.template.replace(/\{(\w+)\}/g, (_whole, name: string) =>
        encodeURIComponent(name === detail.param ? value : (params[name] ?? '')),
      );
    };
  }
}
