import { runMigrationCli } from '@billing/db';
import { subscriptionsEntities } from './entities/index.js';
import { migrations } from './migrations/index.js';

await runMigrationCli({
  entities: subscriptionsEntities,
  migrations,
  migrationsDir: 'src/db/migrations',
  schema: 'subscriptions',
});
