import { createTestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm } from '../../src/index.js';
import { migrations } from '../migrations/index.js';
import { testEntities } from './entities.js';

export interface TestOrm {
  orm: MikroORM;
  schema: string;
  databaseUrl: string;
  /** Closes the ORM and drops the schema. */
  dispose(): Promise<void>;
}

/** An ORM on a fresh, migrated throwaway schema. */
export async function openMigratedTestOrm(prefix = 'db'): Promise<TestOrm> {
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
    schema: testSchema.schema,
    databaseUrl: testSchema.databaseUrl,
    dispose: async () => {
      await orm.close(true);
      await testSchema.drop();
    },
  };
}
