import { acceptOrCreateRequestId, currentContext, type RequestContext } from '@billing/observability';
import {
  type ChannelCredentials,
  type Client,
  type ClientOptions,
  credentials,
  type ServiceDefinition,
  type ServiceError,
  status as Status,
} from '@grpc/grpc-js';
import { toMetadata, toMetadataHeaders } from './metadata.js';
import { serviceErrorToAppError } from './service-error.js';
import {
  type AnyMethodDefinition,
  isUnaryMethod,
  type RequestOf,
  type ResponseOf,
  serviceNameOf,
  type UnaryMethodName,
} from './service-types.js';
import { serviceError, UnaryTransport } from './unary-transport.js';

/** A ts-proto client class, e.g. accountsV1.AccountsServiceClient; only its `service` is used for typing. */
export interface GrpcClientConstructor<S extends ServiceDefinition> {
  new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>): Client;
  readonly service: S;
}

export interface GrpcClientOptions {
  /** Deadline of a call that names none. Every call has one: a hung service must not hang its callers. */
  defaultDeadlineMs?: number;
  /**
   * Insecure by default: calls stay inside the cluster network, over UnaryTransport (plain HTTP/2,
   * far cheaper per call). With credentials (TLS), or a target that is not `host:port` (`dns:///`,
   * `unix:`), calls go through grpc-js's own channel instead.
   */
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
  const send =
    options.credentials === undefined && PLAIN_HOST_PORT.test(address)
      ? viaUnaryTransport(new UnaryTransport(address))
      : viaGrpcJs(new Constructor(address, options.credentials ?? credentials.createInsecure()));

  return {
    // async, so that bad options reject like every other failure instead of throwing.
    async call(method, request, callOptions = {}) {
      const definition = Constructor.service[method];
      if (!isUnaryMethod(definition)) {
        throw new TypeError(`${serviceNameOf(Constructor.service)} has no unary method named "${method}".`);
      }
      const deadlineMs = checkedDeadline(callOptions.deadlineMs ?? defaultDeadlineMs);
      const context = callOptions.context ?? currentContext() ?? { requestId: acceptOrCreateRequestId(undefined) };
      return send.call(definition, request, context, deadlineMs);
    },
    close() {
      send.close();
    },
  };
}

/** `host:port` or `[ipv6]:port`, what the platform's *_ADDRESS settings hold. */
const PLAIN_HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

interface Sender {
  call(definition: AnyMethodDefinition, request: unknown, context: RequestContext, deadlineMs: number): Promise<never>;
  close(): void;
}

function viaUnaryTransport(transport: UnaryTransport): Sender {
  return {
    async call(definition, request, context, deadlineMs) {
      let response: Buffer;
      try {
        const bytes = encodeOrFail(() => definition.requestSerialize(request), 'Request message serialization failure');
        response = await transport.call(definition.path, bytes, toMetadataHeaders(context), deadlineMs);
        return encodeOrFail(() => definition.responseDeserialize(response), 'Response message parsing error') as never;
      } catch (error) {
        throw serviceErrorToAppError(error as ServiceError);
      }
    },
    close: () => transport.close(),
  };
}

/** A message that cannot be (de)serialized fails the call INTERNAL, as grpc-js fails it. */
function encodeOrFail<T>(work: () => T, what: string): T {
  try {
    return work();
  } catch (error) {
    throw serviceError(Status.INTERNAL, `${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function viaGrpcJs(client: Client): Sender {
  return {
    call(definition, request, context, deadlineMs) {
      return new Promise((resolve, reject) => {
        client.makeUnaryRequest(
          definition.path,
          definition.requestSerialize,
          definition.responseDeserialize,
          request,
          toMetadata(context),
          { deadline: Date.now() + deadlineMs },
          (error, response) => {
            if (error) reject(serviceErrorToAppError(error));
            else resolve(response as never);
          },
        );
      });
    },
    close: () => client.close(),
  };
}

function checkedDeadline(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0)
    throw new RangeError(`A gRPC deadline must be a positive number of ms, got ${ms}.`);
  return ms;
}
