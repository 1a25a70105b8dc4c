import { runMigrationCli } from '@billing/db';
import { accountsEntities } from './entities/index.js';
import { migrations } from './migrations/index.js';

// `npm run migration:create -w @billing/accounts -- --name <name>` and `npm run migration:up ...`.
await runMigrationCli({
  entities: accountsEntities,
  migrations,
  migrationsDir: 'src/db/migrations',
  schema: 'accounts',
});
