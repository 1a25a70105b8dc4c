import { StatusCode } from '@billing/errors';
import { acceptOrCreateRequestId, currentContext, type RequestContext } from '@billing/observability';
import {
  type ChannelCredentials,
  type Client,
  type ClientOptions,
  credentials,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import { endClientCallSpan, startClientCallSpan } from './call-tracing.js';
import { recordClientCall } from './grpc-metrics.js';
import { toMetadata } from './metadata.js';
import { serviceErrorToAppError } from './service-error.js';
import {
  isUnaryMethod,
  type RequestOf,
  type ResponseOf,
  serviceNameOf,
  type UnaryMethodName,
} from './service-types.js';

/** A ts-proto client class, e.g. accountsV1.AccountsServiceClient; only its `service` is used for typing. */
export interface GrpcClientConstructor<S extends ServiceDefinition> {
  new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>): Client;
  readonly service: S;
}

export interface GrpcClientOptions {
  /** Deadline of a call that names none. Every call has one: a hung service must not hang its callers. */
  defaultDeadlineMs?: number;
  /** Insecure by default: calls stay inside the cluster network. */
  credentials?: ChannelCredentials;
}

export interface UnaryCallOptions {
  /** Sent as metadata; defaults to the current request's context (or a fresh request id). */
  context?: RequestContext;
  deadlineMs?: number;
}

export interface GrpcClient<S> {
  /** Calls one unary method; a failure rejects with the AppError the service threw. */
  call<M extends UnaryMethodName<S>>(
    method: M,
    request: RequestOf<S[M]>,
    options?: UnaryCallOptions,
  ): Promise<ResponseOf<S[M]>>;
  close(): void;
}

export const DEFAULT_DEADLINE_MS = 5_000;

/**
 * A promise-based client over a ts-proto client class:
 *
 *   const accounts = createGrpcClient(accountsV1.AccountsServiceClient, 'accounts:50051');
 *   const { account } = await accounts.call('getAccount', { code: 'A-1' }, { deadlineMs: 2_000 });
 */
export function createGrpcClient<S extends ServiceDefinition>(
  Constructor: GrpcClientConstructor<S>,
  address: string,
  options: GrpcClientOptions = {},
): GrpcClient<S> {
  const defaultDeadlineMs = checkedDeadline(options.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS);
  const client = new Constructor(address, options.credentials ?? credentials.createInsecure());

  return {
    // async, so that bad options reject like every other failure instead of throwing.
    async call(method, request, callOptions = {}) {
      const definition = Constructor.service[method];
      if (!isUnaryMethod(definition)) {
        throw new TypeError(`${serviceNameOf(Constructor.service)} has no unary method named "${method}".`);
      }
      const deadlineMs = checkedDeadline(callOptions.deadlineMs ?? defaultDeadlineMs);
      const context = callOptions.context ?? currentContext() ?? { requestId: acceptOrCreateRequestId(undefined) };
      const startedAt = performance.now();
      const metadata = toMetadata(context);
      const span = startClientCallSpan(definition.path, metadata);
      return new Promise<ResponseOf<S[typeof method]>>((resolve, reject) => {
        client.makeUnaryRequest(
          definition.path,
          definition.requestSerialize,
          definition.responseDeserialize,
          request,
          metadata,
          { deadline: Date.now() + deadlineMs },
          (error, response) => {
            recordClientCall(definition.path, error?.code, startedAt);
            if (error) {
              const failure = serviceErrorToAppError(error);
              endClientCallSpan(span, failure.code, failure);
              reject(failure);
            } else {
              endClientCallSpan(span, StatusCode.OK);
              resolve(response);
            }
          },
        );
      });
    },
    close() {
      client.close();
    },
  };
}

function checkedDeadline(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0)
    throw new RangeError(`A gRPC deadline must be a positive number of ms, got ${ms}.`);
  return ms;
}
