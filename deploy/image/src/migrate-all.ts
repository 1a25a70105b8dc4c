import { accountsModule } from '@billing/accounts';
import { analyticsModule } from '@billing/analytics';
import { migrate, openOrm } from '@billing/db';
import { invoicingModule } from '@billing/invoicing';
import type { Logger } from '@billing/observability';
import { paymentsModule } from '@billing/payments';
import type { ServiceModule } from '@billing/runtime';
import { subscriptionsModule } from '@billing/subscriptions';

/** The services owning a schema with migrations, in the order they are migrated. */
export const MIGRATED_SERVICES: readonly ServiceModule[] = [
  accountsModule,
  subscriptionsModule,
  invoicingModule,
  analyticsModule,
  paymentsModule,
];

export interface MigrationTarget {
  module: ServiceModule;
  schema: string;
  databaseUrl: string;
}

/** A command line or environment the migrations cannot run with; the message says which. */
export class MigrationUsageError extends Error {}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * `service[=schema]` arguments (none: every service on its default schema) with each service's
 * database: <SERVICE>_DATABASE_URL when set (a service with its own database or user), else
 * DATABASE_URL.
 */
export function migrationTargets(args: readonly string[], env: NodeJS.ProcessEnv): MigrationTarget[] {
  const requested = args.length > 0 ? args : MIGRATED_SERVICES.map((module) => module.name);
  const seen = new Set<string>();
  return requested.map((argument) => {
    const [name = '', schema = name, ...extra] = argument.split('=');
    const module = MIGRATED_SERVICES.find((candidate) => candidate.name === name);
    if (!module || extra.length > 0) {
      const known = MIGRATED_SERVICES.map((candidate) => candidate.name).join(', ');
      throw new MigrationUsageError(`"${argument}" is not service or service=schema (services: ${known})`);
    }
    if (seen.has(name)) throw new MigrationUsageError(`${name} is named twice`);
    seen.add(name);
    if (!SCHEMA_NAME.test(schema)) throw new MigrationUsageError(`${name}: "${schema}" is not a schema name`);
    const variable = `${name.toUpperCase()}_DATABASE_URL`;
    const databaseUrl = env[variable] || env.DATABASE_URL;
    if (!databaseUrl) throw new MigrationUsageError(`${name}: neither ${variable} nor DATABASE_URL is set`);
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new MigrationUsageError(`${name}: the database URL is not a postgresql:// URL`);
    }
    return { module, schema, databaseUrl };
  });
}

export interface MigrationOutcome {
  service: string;
  schema: string;
  applied: string[];
}

/**
 * Applies each target's pending migrations, one service after the other, under the same advisory
 * lock a starting service takes (so replicas started with MIGRATE_ON_START=true wait for it).
 * Stops at the first failure; what was applied before stays (each migration commits on its own).
 */
export async function migrateAll(targets: readonly MigrationTarget[], logger: Logger): Promise<MigrationOutcome[]> {
  const outcomes: MigrationOutcome[] = [];
  for (const { module, schema, databaseUrl } of targets) {
    const orm = await openOrm({
      clientUrl: databaseUrl,
      schema,
      entities: module.entities,
      migrations: module.migrations,
    });
    try {
      const applied = await migrate(orm);
      logger.info({ schema, applied }, `${module.name}: ${applied.length} migrations applied`);
      outcomes.push({ service: module.name, schema, applied });
    } finally {
      await orm.close();
    }
  }
  return outcomes;
}
