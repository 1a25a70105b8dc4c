import { runMigrationCli } from '@billing/db';
import { analyticsEntities } from './entities/index.js';
import { migrations } from './migrations/index.js';

await runMigrationCli({
  entities: analyticsEntities,
  migrations,
  migrationsDir: 'src/db/migrations',
  schema: 'analytics',
});
