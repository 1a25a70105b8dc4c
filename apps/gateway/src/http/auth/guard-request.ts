import type { Clock } from '@billing/clock';
import type { Request, Response } from 'express';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import { BROWSABLE_CLIENT_SYSTEM, sessionToken } from '../browsable/session-cookie.js';
import { clientSystemRequired, invalidToken, permissionDenied, throttled } from '../errors/http-error.js';
import type { HttpLogger } from '../http-logger.js';
import { requestState } from '../request-state.js';
import type { Authenticator } from './authenticator.js';
import type { Principal } from './principal.js';
import { tokenFromAuthorization } from './token-header.js';

export interface GuardDependencies {
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  clock: Clock;
  logger: HttpLogger;
  defaultRateLimitPerMinute: number;
}

export interface GuardRequirements {
  auth: boolean;
  permission?: string | undefined;
}

/**
 * Everything that must hold before a route runs, in DRF's order: the token, then X-Client-System,
 * then the rate limit (every authenticated request counts, refused ones too), then the route's
 * permission. Returns the principal (null on public routes) and records it in the request context.
 */
export async function guardRequest(
  req: Request,
  res: Response,
  requirements: GuardRequirements,
  dependencies: GuardDependencies,
): Promise<Principal | null> {
  if (!requirements.auth) return null;

  const state = requestState(req);
  const authorization = req.get('Authorization');
  // The browsable view's session cookie stands in for the header only on a browser's GET
  // (state.browsable): never on a write, never for a JSON answer.
  const session = authorization === undefined && state.browsable ? sessionToken(req) : undefined;
  const token = session ?? tokenFromAuthorization(authorization);
  if (token === null) throw invalidToken();
  const principal = await dependencies.authenticator.authenticate(token);
  if (principal === null) throw invalidToken();

  // The organization's time zone and (test mode) time travel to every service in call metadata.
  state.context = {
    ...state.context,
    organizationId: principal.organizationId,
    apiUserId: principal.apiUserId,
    ...(principal.organizationTimeZone ? { organizationTimeZone: principal.organizationTimeZone } : {}),
    ...(principal.organizationTime ? { organizationTime: principal.organizationTime } : {}),
    // A browser sends no X-Client-System: what it reads through its session is recorded as such.
    ...(session !== undefined ? { clientSystem: BROWSABLE_CLIENT_SYSTEM } : {}),
  };
  if (state.context.clientSystem === undefined) throw clientSystemRequired();

  await applyRateLimit(res, principal, dependencies);
  if (requirements.permission !== undefined && !principal.permissions.includes(requirements.permission)) {
    throw permissionDenied();
  }
  return principal;
}

async function applyRateLimit(res: Response, principal: Principal, dependencies: GuardDependencies): Promise<void> {
  const limit =
    principal.rateLimitPerMinute > 0 ? principal.rateLimitPerMinute : dependencies.defaultRateLimitPerMinute;
  let decision: Awaited<ReturnType<RateLimiter['hit']>>;
  try {
    decision = await dependencies.rateLimiter.hit({ key: principal.apiUserId, limit, now: dependencies.clock.now() });
  } catch (error) {
    // The limit protects fairness, not identity: when its store is down, serve uncounted rather
    // than fail every request of every client.
    dependencies.logger.error({ err: error }, 'rate limiter unavailable; request served without counting');
    return;
  }
  res.set({
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.floor(decision.resetAt.getTime() / 1000)),
  });
  if (!decision.allowed) throw throttled(decision.retryAfterSeconds);
}
