import { migrate, openOrm } from '@billing/db';
import { createTestSchema, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { invoicingEntities } from '../../src/db/entities/index.js';
import { migrations } from '../../src/db/migrations/index.js';

/** A throwaway invoicing schema, migrated, with an ORM on it: the tests' database without a service. */
export async function openInvoicingSchema(name: string): Promise<{ database: TestSchema; orm: MikroORM }> {
  const database = await createTestSchema(name);
  const orm = await openOrm({
    clientUrl: database.databaseUrl,
    schema: database.schema,
    entities: invoicingEntities,
    migrations,
  });
  await migrate(orm);
  return { database, orm };
}
