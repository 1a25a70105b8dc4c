import { type Context, context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * W3C trace context as it travels between processes: `traceparent` and, when a vendor set one,
 * `tracestate`. The same two keys are gRPC metadata, NATS headers and the outbox row's columns.
 */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/**
 * The trace context of `from` (the active context by default) as its W3C fields: empty when no
 * span records (tracing off, or nothing started), so callers can store or send it unconditionally.
 */
export function traceCarrier(from: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(from, carrier);
  return carrier;
}

/**
 * The context a caller sent (its span as the remote parent), read from anything with the W3C keys.
 * Keys are matched in lower case, as gRPC metadata and HTTP/2 send them.
 */
export function contextFromCarrier(get: (key: 'traceparent' | 'tracestate') => string | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, undefined, {
    keys: () => ['traceparent', 'tracestate'],
    get: (_carrier, key) => (key === 'traceparent' || key === 'tracestate' ? get(key) : undefined),
  });
}
