import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerProbe } from './probe-handlers.js';
import type { ReadinessCheck } from './readiness.js';
import { enableProcessMetrics } from './registry.js';

export interface MetricsServerOptions {
  host: string;
  /** 0 picks a free port (tests); the bound one is in the result. */
  port: number;
  /** What /readyz checks (Postgres, NATS); a function when that changes (starting, stopping). */
  readiness: readonly ReadinessCheck[] | (() => readonly ReadinessCheck[]);
  /** Told about a probe that failed unexpectedly (a collector that threw). */
  onError?: (error: unknown) => void;
}

export interface RunningMetricsServer {
  port: number;
  /** `http://host:port`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The operations port of a process, apart from the traffic it serves: GET /metrics (Prometheus
 * text format), /healthz and /readyz. A port of its own so that metrics stay inside the cluster
 * while the gateway's API port is public; it also gives the gRPC services an HTTP endpoint for
 * Prometheus and probes. Turns on the default process metrics.
 */
export function startMetricsServer(options: MetricsServerOptions): Promise<RunningMetricsServer> {
  enableProcessMetrics();
  const server = createServer((req, res) => {
    const { readiness } = options;
    answerProbe(req, res, typeof readiness === 'function' ? readiness() : readiness, { metrics: true })
      .then((answered) => {
        if (answered) return;
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('Not found: GET /metrics, /healthz or /readyz.\n');
      })
      .catch((error: unknown) => {
        options.onError?.(error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('Internal error.\n');
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        port,
        url: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeIdleConnections();
          }),
      });
    });
  });
}
