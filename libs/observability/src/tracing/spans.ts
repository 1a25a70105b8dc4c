import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  type Link,
  type Span,
  type SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { tracingEnabled } from './setup.js';

export type { Attributes, Context, Link, Span } from '@opentelemetry/api';
export { SpanKind, SpanStatusCode } from '@opentelemetry/api';

/** The instrumentation scope of every span the platform makes (its libraries, not third parties). */
const TRACER_NAME = '@billing/observability';

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** Parent context (e.g. extracted from a message's headers); defaults to the active one. */
  parent?: Context;
}

/**
 * Runs `fn` in a new span that is the active one inside it (child spans, outgoing trace context
 * and log lines see it), and ends the span when `fn` settles. A throw marks the span as failed
 * with the exception recorded, and is rethrown. Without tracing this is a plain call of `fn` with
 * a span that records nothing.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  // Tracing off: what the no-op tracer would do, without its context switch and closures (every
  // consumed message and gRPC call passes here).
  if (!tracingEnabled()) return callWithSpan(fn, NON_RECORDING_SPAN);
  const tracer = trace.getTracer(TRACER_NAME);
  const { parent, ...spanOptions } = options;
  return tracer.startActiveSpan(name, spanOptions, parent ?? context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** What the no-op tracer hands out: records nothing, carries no trace context. */
export const NON_RECORDING_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** `fn(span)` as a promise, also when it throws before returning one (as inSpan's async wrapper does). */
function callWithSpan<T>(fn: (span: Span) => Promise<T>, span: Span): Promise<T> {
  try {
    return Promise.resolve(fn(span));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Starts a span that the caller ends (for work whose end is an event, e.g. an HTTP response). */
export function startSpan(name: string, options: SpanOptions): Span {
  const { parent, ...spanOptions } = options;
  return trace.getTracer(TRACER_NAME).startSpan(name, spanOptions, parent ?? context.active());
}

/** Runs `fn` with `span` as the active span (its children and log lines see it). */
export function withActiveSpan<T>(span: Span, fn: () => T): T {
  if (!tracingEnabled()) return fn();
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** Sets the span's status to ERROR, with the error recorded as an exception event when it is one. */
export function markFailed(span: Span, error: unknown, message?: string): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: message ?? (error instanceof Error ? error.message : String(error)),
  });
}

/** The active span's trace and span ids, for log lines; undefined when no span records. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return trace.isSpanContextValid(span.spanContext()) ? { trace_id: traceId, span_id: spanId } : undefined;
}
