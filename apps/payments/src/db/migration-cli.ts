import { runMigrationCli } from '@billing/db';
import { paymentsEntities } from './entities/index.js';
import { migrations } from './migrations/index.js';

await runMigrationCli({
  entities: paymentsEntities,
  migrations,
  migrationsDir: 'src/db/migrations',
  schema: 'payments',
});
