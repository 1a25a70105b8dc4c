import type { RequestContext } from '@billing/observability';
import type { Request } from 'express';

/** What the gateway knows about one request beyond express's own fields. */
export interface RequestState {
  /** The current context; replaced (not mutated) once the caller is authenticated. */
  context: RequestContext;
  startedAt: number;
  /** The route template that answered, for the access log. */
  route?: string;
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
