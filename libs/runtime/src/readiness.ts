import { type EventBus, JetStreamBus } from '@billing/events';
import { type HealthRegistry, OVERALL, ServingStatus } from '@billing/grpc';
import { checkReadiness, type Logger, type ReadinessCheck } from '@billing/observability';
import type pg from 'pg';

/** What a service needs to answer: its database, and NATS when it runs on JetStream. */
export function serviceReadinessChecks(pool: pg.Pool, bus: EventBus | null): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [
    {
      name: 'postgres',
      check: async () => {
        await pool.query('select 1');
      },
    },
  ];
  // The in-process bus of `npm start` lives and dies with the process: nothing to check.
  if (bus instanceof JetStreamBus) checks.push({ name: 'nats', check: () => bus.ping() });
  return checks;
}

/** How often the gRPC health status is brought in line with the readiness checks. */
export const HEALTH_REFRESH_MS = 5_000;

/**
 * Keeps grpc.health.v1 in line with the readiness checks: every service of the server (and the
 * server as a whole) is NOT_SERVING while Postgres or NATS does not answer, SERVING again once they
 * do, so a Kubernetes gRPC readiness probe takes the pod out of its Service meanwhile. Returns stop.
 */
export function keepHealthInLine(
  health: HealthRegistry,
  services: readonly string[],
  checks: readonly ReadinessCheck[],
  logger: Logger,
  intervalMs = HEALTH_REFRESH_MS,
): () => void {
  let ready = true;
  // A check that hangs until its timeout must not pile up refreshes behind it.
  let refreshing = false;
  const refresh = async () => {
    const report = await checkReadiness(checks);
    if (report.ready !== ready) {
      ready = report.ready;
      if (ready) logger.info({ checks: report.checks }, 'dependencies answer again: SERVING');
      else logger.warn({ checks: report.checks }, 'a dependency does not answer: NOT_SERVING');
    }
    const status = report.ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    for (const service of [OVERALL, ...services]) health.setStatus(service, status);
  };
  const timer = setInterval(() => {
    if (refreshing) return;
    refreshing = true;
    void refresh().finally(() => {
      refreshing = false;
    });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
