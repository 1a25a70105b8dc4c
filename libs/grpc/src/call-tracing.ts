import { StatusCode } from '@billing/errors';
import {
  type Attributes,
  contextFromCarrier,
  markFailed,
  type Span,
  SpanKind,
  startSpan,
  traceCarrier,
  withActiveSpan,
} from '@billing/observability';
import type { Metadata } from '@grpc/grpc-js';
import { statusCodeName } from './status-code-names.js';

/** Codes that mean the server failed (OpenTelemetry's rule for gRPC server spans); the others are the caller's. */
const SERVER_SPAN_ERRORS: ReadonlySet<StatusCode> = new Set([
  StatusCode.UNKNOWN,
  StatusCode.DEADLINE_EXCEEDED,
  StatusCode.UNIMPLEMENTED,
  StatusCode.INTERNAL,
  StatusCode.UNAVAILABLE,
  StatusCode.DATA_LOSS,
]);

/**
 * `/billing.accounts.v1.AccountsService/GetAccount` → the span name without the slash and the
 * rpc.* attributes of OpenTelemetry's RPC conventions.
 */
function rpcNaming(path: string): { name: string; attributes: Attributes } {
  const name = path.replace(/^\//, '');
  const slash = name.lastIndexOf('/');
  return {
    name,
    attributes: {
      'rpc.system': 'grpc',
      'rpc.service': slash > 0 ? name.slice(0, slash) : name,
      'rpc.method': slash > 0 ? name.slice(slash + 1) : name,
    },
  };
}

/**
 * A client span around one unary call, whose trace context goes with the call as `traceparent`
 * (and `tracestate`) metadata; the span ends with the call's status code.
 */
export function startClientCallSpan(path: string, metadata: Metadata): Span {
  const { name, attributes } = rpcNaming(path);
  const span = startSpan(name, { kind: SpanKind.CLIENT, attributes });
  for (const [key, value] of Object.entries(withActiveSpan(span, () => traceCarrier()))) {
    if (value) metadata.set(key, value);
  }
  return span;
}

/** Ends a call's client span: every code but OK is a failure from the caller's side. */
export function endClientCallSpan(span: Span, code: StatusCode, error?: unknown): void {
  span.setAttribute('rpc.grpc.status_code', code);
  if (code !== StatusCode.OK) markFailed(span, error, statusCodeName(code));
  span.end();
}

/** The server span of one call: a child of the caller's span when its metadata carries one. */
export function startServerCallSpan(path: string, metadata: Metadata): Span {
  const { name, attributes } = rpcNaming(path);
  const parent = contextFromCarrier((key) => {
    const [value] = metadata.get(key);
    return typeof value === 'string' ? value : undefined;
  });
  return startSpan(name, { kind: SpanKind.SERVER, attributes, parent });
}

/** Ends a call's server span; only codes that mean the service itself failed mark it failed. */
export function endServerCallSpan(span: Span, code: StatusCode, error?: unknown): void {
  span.setAttribute('rpc.grpc.status_code', code);
  if (SERVER_SPAN_ERRORS.has(code)) markFailed(span, error, statusCodeName(code));
  span.end();
}
