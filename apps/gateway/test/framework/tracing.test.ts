import { initTracing, SpanKind, SpanStatusCode, type Tracing } from '@billing/observability';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hidePathInLog } from '../../src/http/index.js';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

describe('the request span (tracing on)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let app: WidgetApp;

  beforeAll(async () => {
    tracing = await initTracing({ serviceName: 'gateway', exporter });
    const pages = express.Router({ strict: true });
    pages.get('/secret/:token/', (req, res) => {
      hidePathInLog(req, '/secret/{token}/');
      res.status(200).send('ok');
    });
    app = await startWidgetApp({ pages: [pages] });
  });
  afterAll(async () => {
    await app.close();
    await tracing.shutdown();
  });
  beforeEach(() => exporter.reset());

  /** The one span a request made, once the response has closed and the span ended. */
  async function onlySpan(): Promise<ReadableSpan> {
    for (let attempt = 0; attempt < 100 && exporter.getFinishedSpans().length === 0; attempt += 1) {
      await tracing.flush();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    return spans[0]!;
  }

  it('is named by method and route template, and continues the caller’s traceparent', async () => {
    const response = await app.request('GET', '/api/v1/widgets/?page=1', {
      headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    });
    expect(response.status).toBe(200);
    const span = await onlySpan();
    expect(span.name).toBe('GET /api/v1/widgets/');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(CALLER_TRACE);
    expect(span.parentSpanContext).toMatchObject({ spanId: CALLER_SPAN, isRemote: true });
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'http.route': '/api/v1/widgets/',
      'url.path': '/api/v1/widgets/',
      'http.response.status_code': 200,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('starts a trace without traceparent and is failed for a 5xx', async () => {
    const response = await app.request('GET', '/api/v1/widgets/failures/internal/');
    expect(response.status).toBe(500);
    const span = await onlySpan();
    expect(span.name).toBe('GET /api/v1/widgets/failures/{kind}/');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes['http.response.status_code']).toBe(500);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: '500' });
  });

  it('is named by the method alone when no route answered, and a 4xx is not a failure', async () => {
    const response = await app.request('GET', '/nope/');
    expect(response.status).toBe(404);
    const span = await onlySpan();
    expect(span.name).toBe('GET');
    expect(span.attributes['http.route']).toBeUndefined();
    expect(span.attributes['url.path']).toBe('/nope/');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records a path holding a secret as its template only', async () => {
    const response = await app.request('GET', '/secret/s3cr3t-token/');
    expect(response.status).toBe(200);
    const span = await onlySpan();
    expect(span.name).toBe('GET /secret/{token}/');
    expect(span.attributes['url.path']).toBe('/secret/{token}/');
    expect(JSON.stringify(span.attributes)).not.toContain('s3cr3t');
  });
});
