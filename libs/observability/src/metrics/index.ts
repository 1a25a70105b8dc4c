/** The metric types, for libraries that define their own metrics on metricsRegistry. */
export { Counter, Gauge, Histogram } from 'prom-client';
export {
  chargeAttemptsTotal,
  invoicesIssuedTotal,
  subscriptionsRenewedTotal,
  webhookDeliveriesTotal,
} from './business-metrics.js';
export { httpRequestDurationSeconds, httpRequestsTotal, recordHttpRequest } from './http-metrics.js';
export { type MetricsServerOptions, type RunningMetricsServer, startMetricsServer } from './metrics-server.js';
export { answerProbe } from './probe-handlers.js';
export {
  checkReadiness,
  notReady,
  READINESS_TIMEOUT_MS,
  type ReadinessCheck,
  type ReadinessReport,
} from './readiness.js';
export { enableProcessMetrics, metricsRegistry } from './registry.js';
