import { describe, expect, it } from 'vitest';
import { contextFromCarrier, traceCarrier } from './propagation.js';
import { initTracing, tracingEnabled } from './setup.js';
import { activeTraceIds, inSpan } from './spans.js';

const CALLER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('tracing without an OTLP endpoint', () => {
  it('installs nothing: spans record nothing and no trace context is written', async () => {
    const tracing = await initTracing({ serviceName: 'unit', env: { OTEL_SERVICE_NAME: 'named' } });
    expect(tracing.enabled).toBe(false);
    expect(tracingEnabled()).toBe(false);
    const seen = await inSpan('ignored', { parent: contextFromCarrier(() => CALLER) }, async (span) => ({
      recording: span.isRecording(),
      ids: activeTraceIds(),
      carrier: traceCarrier(),
    }));
    expect(seen).toEqual({ recording: false, ids: undefined, carrier: {} });
  });

  it('stays off when the SDK is disabled even with an endpoint', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' };
    expect((await initTracing({ serviceName: 'unit', env })).enabled).toBe(false);
  });
});

describe('a misspelt OTLP endpoint', () => {
  it('stops the start, naming the variable', async () => {
    await expect(
      initTracing({ serviceName: 'unit', env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' } }),
    ).rejects.toThrow('OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL (OTLP/HTTP), got "collector:4318"');
    await expect(
      initTracing({ serviceName: 'unit', env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317' } }),
    ).rejects.toThrow('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL');
    expect(tracingEnabled()).toBe(false);
  });
});
