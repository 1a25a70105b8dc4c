import type { RequestContext } from '@billing/observability';
import type { ServiceDefinition } from '@grpc/grpc-js';
import {
  isUnaryMethod,
  type RequestOf,
  type ResponseOf,
  serviceNameOf,
  type UnaryMethodName,
} from './service-types.js';

/** A service method as services write it: no callbacks, errors are thrown (AppError). */
export type UnaryHandler<Request, Response> = (request: Request, context: RequestContext) => Promise<Response>;

/**
 * Handlers keyed by the definition's method names, each typed with that method's messages.
 * Methods left out answer UNIMPLEMENTED (grpc-js's default), so a service can grow method by method.
 */
export type UnaryHandlers<S> = {
  [K in UnaryMethodName<S>]?: UnaryHandler<RequestOf<S[K]>, ResponseOf<S[K]>>;
};

/** A service ready for startGrpcServer: its definition and its handlers, with types erased. */
export interface GrpcService {
  readonly name: string;
  readonly definition: ServiceDefinition;
  readonly implementation: Readonly<Record<string, UnaryHandler<never, unknown>>>;
}

/**
 * Pairs a ts-proto service definition with plain async handlers, type-checked against it:
 *
 *   unaryService(accountsV1.AccountsServiceService, {
 *     getAccount: async (request, context) => ({ account: await getAccount(request.code, context) }),
 *   })
 */
export function unaryService<S extends ServiceDefinition>(definition: S, handlers: UnaryHandlers<S>): GrpcService {
  const implementation: Record<string, UnaryHandler<never, unknown>> = {};
  for (const [method, handler] of Object.entries(handlers as Record<string, unknown>)) {
    if (handler === undefined) continue;
    // The types already refuse these; this catches casts and plain-JS callers at startup.
    if (!isUnaryMethod(definition[method])) {
      throw new TypeError(`${serviceNameOf(definition)} has no unary method named "${method}".`);
    }
    if (typeof handler !== 'function') throw new TypeError(`The handler for "${method}" is not a function.`);
    implementation[method] = handler as UnaryHandler<never, unknown>;
  }
  return { name: serviceNameOf(definition), definition, implementation };
}
