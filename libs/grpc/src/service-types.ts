import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/**
 * Types read off a ts-proto service definition (`outputServices=grpc-js`), e.g.
 * `accountsV1.AccountsServiceService`, whose keys are the lowerCamelCase method names.
 */

/** Names of the methods that take one request and return one response. */
export type UnaryMethodName<S> = {
  [K in keyof S]: S[K] extends { requestStream: false; responseStream: false } ? K : never;
}[keyof S] &
  string;

export type RequestOf<M> = M extends { requestDeserialize: (bytes: Buffer) => infer Request } ? Request : never;

export type ResponseOf<M> = M extends { responseDeserialize: (bytes: Buffer) => infer Response } ? Response : never;

/** A method definition whose message types no longer matter, for code that only moves bytes. */
// biome-ignore lint/suspicious/noExplicitAny: grpc-js's own ServiceDefinition erases message types the same way.
export type AnyMethodDefinition = MethodDefinition<any, any>;

export function isUnaryMethod(method: AnyMethodDefinition | undefined): method is AnyMethodDefinition {
  return method !== undefined && !method.requestStream && !method.responseStream;
}

/** 'billing.accounts.v1.AccountsService', read from the method paths ('/<service>/<Method>'). */
export function serviceNameOf(definition: ServiceDefinition): string {
  const [first] = Object.values(definition);
  if (!first) throw new TypeError('A gRPC service definition needs at least one method.');
  return first.path.slice(1, first.path.lastIndexOf('/'));
}
