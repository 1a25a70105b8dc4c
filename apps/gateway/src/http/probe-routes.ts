import { answerProbe, type ReadinessCheck } from '@billing/observability';
import type { RequestHandler } from 'express';
import type { HttpLogger } from './http-logger.js';

/**
 * GET /healthz and /readyz on the gateway's own port, for a load balancer or Kubernetes probe
 * that only sees the API port (the Helm chart's). /metrics is not here: it is served on
 * METRICS_PORT only, which stays inside the cluster while the API port is public; for the same
 * reason a failed check's reason (an internal address) goes to the log, not into the answer.
 */
export function probeRoutes(readiness: readonly ReadinessCheck[], logger: HttpLogger): RequestHandler {
  const onNotReady = (checks: Record<string, string>) => logger.warn({ checks }, 'not ready');
  return (req, res, next) => {
    answerProbe(req, res, readiness, { metrics: false, hideReasons: true, onNotReady }).then((answered) => {
      if (!answered) next();
    }, next);
  };
}
