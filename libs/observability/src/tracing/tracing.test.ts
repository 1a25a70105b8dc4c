import { Writable } from 'node:stream';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { contextFromCarrier, traceCarrier } from './propagation.js';
import { initTracing, type Tracing, tracingEnabled } from './setup.js';
import { activeTraceIds, inSpan, SpanKind, SpanStatusCode } from './spans.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('tracing with an exporter', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  beforeAll(async () => {
    tracing = await initTracing({ serviceName: 'unit', exporter, env: {} });
  });
  afterAll(() => tracing.shutdown());

  it('nests spans, carries them as W3C traceparent and continues them from it', async () => {
    expect(tracingEnabled()).toBe(true);
    let sent = {};
    await inSpan('outer', { kind: SpanKind.SERVER }, async () => {
      await inSpan('inner', {}, async () => {
        sent = traceCarrier();
      });
    });
    await inSpan(
      'remote child',
      { parent: contextFromCarrier((key) => (sent as Record<string, string>)[key]) },
      async () => {},
    );
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const [inner, outer, remote] = spans;
    expect(spans.map((span) => span.name)).toEqual(['inner', 'outer', 'remote child']);
    expect(inner!.parentSpanContext?.spanId).toBe(outer!.spanContext().spanId);
    expect(outer!.parentSpanContext).toBeUndefined();
    const [, traceId, spanId] = TRACEPARENT.exec((sent as { traceparent: string }).traceparent)!;
    expect(traceId).toBe(outer!.spanContext().traceId);
    expect(spanId).toBe(inner!.spanContext().spanId);
    expect(remote!.spanContext().traceId).toBe(traceId);
    expect(remote!.parentSpanContext?.spanId).toBe(spanId);
    expect(remote!.parentSpanContext?.isRemote).toBe(true);
    expect(outer!.resource.attributes['service.name']).toBe('unit');
  });

  it('marks a span failed when its work throws, and rethrows', async () => {
    exporter.reset();
    await expect(
      inSpan('failing', {}, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await tracing.flush();
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(span!.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('puts the active span ids on log lines', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('unit', 'info', sink);
    let ids: ReturnType<typeof activeTraceIds>;
    await inSpan('logged', {}, async () => {
      ids = activeTraceIds();
      logger.info('inside');
    });
    logger.info('outside');
    const [inside, outside] = lines.map((line) => JSON.parse(line));
    expect(inside).toMatchObject({ trace_id: ids!.trace_id, span_id: ids!.span_id, msg: 'inside' });
    expect(outside.trace_id).toBeUndefined();
  });
});
