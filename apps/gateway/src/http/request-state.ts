import type { RequestContext } from '@billing/observability';
import type { Request } from 'express';
import type { BrowsableView } from './browsable/browsable-view.js';
import type { Route } from './route/route-types.js';

/** What the gateway knows about one request beyond express's own fields. */
export interface RequestState {
  /** The current context; replaced (not mutated) once the caller is authenticated. */
  context: RequestContext;
  startedAt: number;
  /** The route template that answered, for the access log. */
  route?: string;
  /** The route that answered (the browsable view shows its summary and filters). */
  routeDefinition?: Route;
  /** Set when the answer is to be a page of the browsable view (a browser's GET). */
  browsable?: BrowsableView;
  /** Logged instead of the request's path when that holds a secret (hidePathInLog). */
  loggedPath?: string;
}

const states = new WeakMap<Request, RequestState>();

export function setRequestState(req: Request, state: RequestState): void {
  states.set(req, state);
}

export function requestState(req: Request): RequestState {
  const state = states.get(req);
  if (!state) throw new Error('Request state is missing: requestContextMiddleware must run first');
  return state;
}

/** The request id already sent in X-Request-ID, also for errors raised before any state exists. */
export function requestIdOf(req: Request): string {
  return states.get(req)?.context.requestId ?? String(req.res?.getHeader('X-Request-ID') ?? 'unknown');
}

/** The browsable view, when this request's answer is to be HTML (never throws: errors use it too). */
export function browsableOf(req: Request): { view: BrowsableView; state: RequestState } | undefined {
  const state = states.get(req);
  return state?.browsable ? { view: state.browsable, state } : undefined;
}

/**
 * For a path that holds a secret (a self-service sign-in token): the access log shows `template`
 * (e.g. `/self-service/sign-in/{token}/`) as both path and route, never the secret.
 */
export function hidePathInLog(req: Request, template: string): void {
  const state = requestState(req);
  state.route = template;
  state.loggedPath = template;
}

/**
 * The route template and the loggable path of a finished request, for its trace span; undefined
 * parts when no route answered (unknown paths) or the state was never set.
 */
export function routeAndLoggedPath(req: Request): { route?: string | undefined; loggedPath?: string | undefined } {
  const state = states.get(req);
  return { route: state?.route, loggedPath: state?.loggedPath };
}
