import { answerProbe, type ReadinessCheck } from '@billing/observability';
import type { RequestHandler } from 'express';

/**
 * GET /healthz and /readyz on the gateway's own port, for a load balancer or Kubernetes probe
 * that only sees the API port. /metrics is not here: it is served on METRICS_PORT only, which
 * stays inside the cluster while the API port is public.
 */
export function probeRoutes(readiness: readonly ReadinessCheck[]): RequestHandler {
  return (req, res, next) => {
    answerProbe(req, res, readiness, { metrics: false }).then((answered) => {
      if (!answered) next();
    }, next);
  };
}
