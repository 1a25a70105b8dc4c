import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The process's one metrics registry: every metric of the platform is registered here, and the
 * metrics server (startMetricsServer) serves it. One per process on purpose: the all-in-one local
 * runner has several services in one process, and their metrics stay apart by their labels
 * (grpc_service, service, durable), not by registry.
 */
export const metricsRegistry = new Registry();

let processMetrics = false;

/**
 * Adds prom-client's default process metrics (CPU, memory, event loop lag, GC, handles) to the
 * registry, once per process. Called by whoever starts a metrics server: tests that import the
 * platform without serving metrics do not pay for the event loop monitor.
 */
export function enableProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
