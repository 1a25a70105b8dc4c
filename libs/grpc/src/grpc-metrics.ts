import { Counter, Histogram, metricsRegistry } from '@billing/observability';
import type { handleUnaryCall, ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import { statusCodeName, toStatusCode } from './status-code-names.js';

/**
 * Unary gRPC calls, served and made, as go-grpc-prometheus names them: grpc_service is the full
 * service name (billing.accounts.v1.AccountsService), grpc_method the method (GetAccount),
 * grpc_code the status name (OK, NOT_FOUND, ...). The histograms carry the code too, so slow
 * failures and slow successes can be told apart.
 */
const labelNames = ['grpc_type', 'grpc_service', 'grpc_method', 'grpc_code'] as const;
const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const grpcServerHandledTotal = new Counter({
  name: 'grpc_server_handled_total',
  help: 'gRPC calls completed on the server, by service, method and status code.',
  labelNames,
  registers: [metricsRegistry],
});

export const grpcServerHandlingSeconds = new Histogram({
  name: 'grpc_server_handling_seconds',
  help: 'Time the server took to answer a gRPC call, by service, method and status code.',
  labelNames,
  buckets,
  registers: [metricsRegistry],
});

export const grpcClientHandledTotal = new Counter({
  name: 'grpc_client_handled_total',
  help: 'gRPC calls completed by a client (the gateway, one service calling another), by service, method and status code.',
  labelNames,
  registers: [metricsRegistry],
});

export const grpcClientHandlingSeconds = new Histogram({
  name: 'grpc_client_handling_seconds',
  help: 'Time from sending a gRPC call to its answer, as the client saw it, by service, method and status code.',
  labelNames,
  buckets,
  registers: [metricsRegistry],
});

/** '/billing.accounts.v1.AccountsService/GetAccount' → its service and method labels. */
function pathLabels(path: string): { grpc_service: string; grpc_method: string } {
  const [, service = '', method = ''] = path.split('/');
  return { grpc_service: service, grpc_method: method };
}

/** Records a call once its answer went out: the code it was answered with, and how long it took. */
export function instrumentUnaryHandler(
  path: string,
  handler: handleUnaryCall<unknown, unknown>,
): handleUnaryCall<unknown, unknown> {
  const labels = { grpc_type: 'unary', ...pathLabels(path) };
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const startedAt = performance.now();
    const recorded: sendUnaryData<unknown> = (error, ...rest) => {
      const code = statusCodeName(toStatusCode(error?.code ?? 0));
      grpcServerHandledTotal.inc({ ...labels, grpc_code: code });
      grpcServerHandlingSeconds.observe({ ...labels, grpc_code: code }, (performance.now() - startedAt) / 1_000);
      callback(error, ...rest);
    };
    handler(call, recorded);
  };
}

/** The client side of instrumentUnaryHandler: called when a call made by createGrpcClient settles. */
export function recordClientCall(path: string, code: number | undefined, startedAt: number): void {
  const labels = { grpc_type: 'unary', ...pathLabels(path), grpc_code: statusCodeName(toStatusCode(code ?? 0)) };
  grpcClientHandledTotal.inc(labels);
  grpcClientHandlingSeconds.observe(labels, (performance.now() - startedAt) / 1_000);
}
