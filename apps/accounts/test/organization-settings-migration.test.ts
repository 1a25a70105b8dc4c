/**
 * The migration that brings e-mail, bank accounts and feature flags: organizations made before it
 * (when no command could set a flag) get gaps.md §11's default, self_service on, and keep the rest.
 */
import { migrate, openOrm } from '@billing/db';
import { createTestSchema, type TestSchema } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountsEntities } from '../src/db/entities/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { Migration20261125183926_organization_email_bank_accounts_features as Settings } from '../src/db/migrations/Migration20261125183926_organization_email_bank_accounts_features.js';

let database: TestSchema;

beforeAll(async () => {
  database = await createTestSchema('accounts');
});

afterAll(async () => {
  await database?.drop();
});

const open = (upTo: readonly (typeof migrations)[number][]) =>
  openOrm({
    clientUrl: database.databaseUrl,
    schema: database.schema,
    entities: accountsEntities,
    migrations: [...upTo],
  });

it('turns self_service on for the organizations that exist, keeping their other flags', async () => {
  const before = await open(migrations.slice(0, migrations.indexOf(Settings)));
  await migrate(before);
  const insert = `insert into organization (id, name, country, base_currency, time_zone, default_payment_terms,
    default_collection_method, rate_limit_per_minute, features, created_at)
    values (?, ?, 'DK', 'DKK', 'Europe/Copenhagen', 14, 'invoice', 60, ?::jsonb, now())`;
  const connection = before.em.getConnection();
  await connection.execute(insert, ['00000000-0000-4000-8000-000000000001', 'Plain', '[]']);
  await connection.execute(insert, ['00000000-0000-4000-8000-000000000002', 'Kickback', '["kickback"]']);
  await connection.execute(insert, ['00000000-0000-4000-8000-000000000003', 'Both', '["kickback","self_service"]']);
  await before.close();

  const after = await open(migrations);
  try {
    expect(await migrate(after)).toContain('Migration20261125183926_organization_email_bank_accounts_features');
    expect(
      await after.em.getConnection().execute('select name, features, email from organization order by id'),
    ).toEqual([
      { name: 'Plain', features: ['self_service'], email: '' },
      { name: 'Kickback', features: ['kickback', 'self_service'], email: '' },
      { name: 'Both', features: ['kickback', 'self_service'], email: '' },
    ]);
  } finally {
    await after.close();
  }
});
