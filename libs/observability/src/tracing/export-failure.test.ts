import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { initTracing } from './setup.js';
import { inSpan } from './spans.js';

/** A port nothing listens on: bound, read and released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a collector that cannot be reached', () => {
  it('costs a warning in the log, never the traced work', async () => {
    const warnings: Array<{ fields: object; message: string }> = [];
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const tracing = await initTracing({
      serviceName: 'unit',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '500' },
      logger: { warn: (fields, message) => warnings.push({ fields, message }) },
    });
    try {
      expect(tracing.enabled).toBe(true);
      expect(await inSpan('work', {}, async () => 'done')).toBe('done');
      await tracing.flush();
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings[0]!.message).toMatch(/^tracing: /);
      expect(JSON.stringify(warnings)).toContain('ECONNREFUSED');
    } finally {
      await tracing.shutdown();
    }
  });
});
