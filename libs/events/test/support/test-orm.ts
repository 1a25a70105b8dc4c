import { migrate, openOrm } from '@billing/db';
import { createTestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrations } from '../migrations/index.js';
import { testEntities } from './entities.js';

export interface TestOrm {
  orm: MikroORM;
  dispose(): Promise<void>;
}

/** An ORM on a fresh, migrated throwaway schema with outbox, inbox and a table for handler effects. */
export async function openMigratedTestOrm(prefix: string): Promise<TestOrm> {
  const testSchema = await createTestSchema(prefix);
  const orm = await openOrm({
    clientUrl: testSchema.databaseUrl,
    schema: testSchema.schema,
    entities: testEntities,
    migrations,
  });
  await migrate(orm);
  return {
    orm,
    dispose: async () => {
      await orm.close(true);
      await testSchema.drop();
    },
  };
}
