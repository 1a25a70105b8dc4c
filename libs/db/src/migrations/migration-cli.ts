import { parseArgs } from 'node:util';
import type { Options } from '@mikro-orm/postgresql';
import { migrate } from '../migrate.js';
import type { MigrationClass } from '../migration-class.js';
import { openOrm } from '../open-orm.js';
import { createMigration } from './create-migration.js';

export interface MigrationCliOptions {
  entities: NonNullable<Options['entities']>;
  migrations: MigrationClass[];
  /** Source folder of the migrations, relative to the service package (npm runs scripts there). */
  migrationsDir: string;
  /** The schema the service owns; `up` migrates it. */
  schema: string;
}

const USAGE = `usage:
  create [--name <snake_case_name>] [--blank]   generate the next migration from the entities
  up                                            apply pending migrations to DATABASE_URL (schema from config)`;

/**
 * The body of a service's `src/db/migration-cli.ts`, so every service has the same commands:
 * `npm run migration:create -- --name add_tiers` and `npm run migration:up`.
 */
export async function runMigrationCli(options: MigrationCliOptions, argv = process.argv.slice(2)): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, blank: { type: 'boolean', default: false } },
  });
  switch (positionals[0]) {
    case 'create': {
      const created = await createMigration({
        entities: options.entities,
        migrationsDir: options.migrationsDir,
        blank: values.blank,
        ...(values.name ? { name: values.name } : {}),
      });
      console.log(created.className ? `Created ${created.className}` : 'Entities match the snapshot: no migration');
      return;
    }
    case 'up': {
      const clientUrl = process.env.DATABASE_URL;
      if (!clientUrl) throw new Error('DATABASE_URL is required for `up`');
      const orm = await openOrm({
        clientUrl,
        schema: options.schema,
        entities: options.entities,
        migrations: options.migrations,
      });
      try {
        const applied = await migrate(orm);
        console.log(applied.length > 0 ? `Applied ${applied.join(', ')}` : 'No pending migrations');
      } finally {
        await orm.close();
      }
      return;
    }
    default:
      throw new Error(USAGE);
  }
}
