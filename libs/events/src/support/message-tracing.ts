import {
  contextFromCarrier,
  inSpan,
  NON_RECORDING_SPAN,
  type Span,
  SpanKind,
  type TraceCarrier,
  traceCarrier,
  tracingEnabled,
} from '@billing/observability';

/** The NATS headers that carry W3C trace context (the same names as the outbox row's columns). */
export type TraceHeaders = Readonly<TraceCarrier>;

/** An outbox row's stored trace context, as the relay reads it. */
export interface StoredTraceContext {
  traceparent?: string | null;
  tracestate?: string | null;
}

/** The active trace context, as an outbox row stores it (nulls when no span records). */
export function traceContextToStore(): { traceparent: string | null; tracestate: string | null } {
  const carrier = traceCarrier();
  return { traceparent: carrier.traceparent ?? null, tracestate: carrier.tracestate ?? null };
}

/**
 * Publishes one outbox row in a producer span that continues the trace of the change that wrote
 * the row (its stored traceparent), and hands `publish` the headers to send: the producer span's
 * context, or the stored one as it is when this process records no spans. A row written outside
 * any trace (e.g. by the renewal scheduler) is published without a span or headers.
 */
export async function publishInSpan(
  row: StoredTraceContext & { id: string; subject: string },
  publish: (headers: TraceHeaders | undefined) => Promise<void>,
): Promise<void> {
  if (!row.traceparent) return publish(undefined);
  const stored: TraceCarrier = {
    traceparent: row.traceparent,
    ...(row.tracestate ? { tracestate: row.tracestate } : {}),
  };
  // No span records here: the stored context goes on as it is (what the span below would send).
  if (!tracingEnabled()) return publish(stored);
  const parent = contextFromCarrier((key) => stored[key]);
  return inSpan(
    `${row.subject} publish`,
    {
      kind: SpanKind.PRODUCER,
      parent,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'send',
        'messaging.destination.name': row.subject,
        'messaging.message.id': row.id,
      },
    },
    async () => {
      const sent = traceCarrier();
      await publish(sent.traceparent ? sent : stored);
    },
  );
}

/**
 * Runs one delivered message's handling in a consumer span: a child of the publisher's span when
 * the message's headers carry traceparent, else the root of a new trace.
 */
export function consumeInSpan<T>(
  message: { subject: string; messageId: string; headers?: TraceHeaders | undefined },
  consumer: string,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  // Tracing off: no parent to read, no attributes to build, no context to enter.
  if (!tracingEnabled()) return fn(NON_RECORDING_SPAN);
  const headers = message.headers ?? {};
  return inSpan(
    `${message.subject} process`,
    {
      kind: SpanKind.CONSUMER,
      parent: contextFromCarrier((key) => headers[key]),
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'process',
        'messaging.destination.name': message.subject,
        'messaging.consumer.group.name': consumer,
        'messaging.message.id': message.messageId,
      },
    },
    fn,
  );
}
