import { runMigrationCli } from '@billing/db';
import { invoicingEntities } from './entities/index.js';
import { migrations } from './migrations/index.js';

await runMigrationCli({
  entities: invoicingEntities,
  migrations,
  migrationsDir: 'src/db/migrations',
  schema: 'invoicing',
});
