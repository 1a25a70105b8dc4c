import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './registry.js';

const labelNames = ['method', 'route', 'status_code'] as const;

/**
 * The gateway's REST requests. `route` is the matched route template (`/api/v1/accounts/{code}/`),
 * never the path with its ids; a path no route matched is `unmatched`, so a scan of random URLs
 * cannot grow the series without bound.
 */
export const httpRequestsTotal = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, matched route template and status code.',
  labelNames,
  registers: [metricsRegistry],
});

export const httpRequestDurationSeconds = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from receiving an HTTP request to the end of its response, by method, route template and status code.',
  labelNames,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** Records one answered request. */
export function recordHttpRequest(
  labels: { method: string; route: string; status_code: number },
  durationSeconds: number,
): void {
  const values = { method: labels.method, route: labels.route, status_code: String(labels.status_code) };
  httpRequestsTotal.inc(values);
  httpRequestDurationSeconds.observe(values, durationSeconds);
}
