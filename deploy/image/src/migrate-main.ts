import { createLogger } from '@billing/observability';
import { MigrationUsageError, migrateAll, migrationTargets } from './migrate-all.js';

/**
 * `migrate [service[=schema] ...]`: the Helm chart's pre-install/pre-upgrade Job. Exit status 0
 * when every schema is up to date, 1 when a migration failed, 2 for a wrong command line.
 */
const logger = createLogger('migrate', process.env.LOG_LEVEL ?? 'info');
let targets: ReturnType<typeof migrationTargets>;
try {
  targets = migrationTargets(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof MigrationUsageError)) throw error;
  process.stderr.write(`migrate: ${error.message}\n`);
  process.exit(2);
}
try {
  await migrateAll(targets, logger);
} catch (error) {
  logger.error({ err: error }, 'migrations failed');
  process.exitCode = 1;
}
