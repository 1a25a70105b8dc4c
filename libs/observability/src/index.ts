export { createLogger, type Logger } from './logger.js';
export * from './metrics/index.js';
export { acceptOrCreateRequestId, currentContext, type RequestContext, runWithContext } from './request-context.js';
export { contextFromCarrier, type TraceCarrier, traceCarrier } from './tracing/propagation.js';
export { initTracing, type Tracing, type TracingOptions, tracingEnabled } from './tracing/setup.js';
export {
  type Attributes,
  activeTraceIds,
  type Context,
  inSpan,
  type Link,
  markFailed,
  NON_RECORDING_SPAN,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  startSpan,
  withActiveSpan,
} from './tracing/spans.js';
