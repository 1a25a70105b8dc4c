import { exportWorkerIntervalMs, serviceExports } from '@billing/exports';
import type { ServiceDeps, ServiceModule } from '@billing/runtime';
import { analyticsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import { startAnalyticsConsumers } from './events/consumers.js';
import { accountActivityListExport, activityListExport } from './grpc/activity-exports.js';
import { activityService } from './grpc/activity-service.js';
import { reportService } from './grpc/report-service.js';
import type { AnalyticsDeps } from './use-cases/deps.js';

const depsOf = (deps: ServiceDeps): AnalyticsDeps => ({ orm: deps.orm, clock: deps.clock });

/** The CSV exports of the activity and account activity lists (gaps.md §9; libs/exports). */
const exportsOf = (deps: ServiceDeps) =>
  serviceExports('analytics', [activityListExport(deps.clock), accountActivityListExport(deps.clock)]);

/**
 * The analytics service. It owns the `analytics` schema: activities and account activities, each
 * subscription's MRR and the organizations' totals, made only from other services' events
 * (accounts.>, subscriptions.>, invoicing.invoice.*, payments.payment.succeeded); see docs/analytics.md.
 */
export const analyticsModule: ServiceModule = {
  name: 'analytics',
  defaultGrpcPort: 50054,
  entities: analyticsEntities,
  migrations,
  // activity.created (stream ANALYTICS): accounts delivers it as the new_activity webhook.
  publishesEvents: true,
  checkConfig: (env) => void exportWorkerIntervalMs('analytics', env),
  grpcServices: (deps) => [
    activityService(depsOf(deps)),
    reportService(depsOf(deps)),
    exportsOf(deps).grpcService(deps),
  ],
  workers: async (deps) => {
    const exporter = exportsOf(deps).worker(deps);
    if (!deps.bus) {
      deps.logger.warn('no event bus configured: analytics receives no events');
      return [exporter];
    }
    const schema = deps.orm.config.get('schema') ?? 'analytics';
    return [exporter, ...(await startAnalyticsConsumers(depsOf(deps), { bus: deps.bus, logger: deps.logger, schema }))];
  },
};
