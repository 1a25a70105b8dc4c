import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSchema, testDatabaseUrl } from './test-database.js';
import { uniqueName } from './unique-name.js';

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('createTestSchema', () => {
  const originalUrl = process.env.TEST_DATABASE_URL;
  afterEach(() => {
    if (originalUrl === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = originalUrl;
  });

  it('hands out a fresh, not yet created schema and drops it with everything in it', async () => {
    const testSchema = await createTestSchema('accounts');
    expect(testSchema.schema).toMatch(/^accounts_t_[0-9a-f]{8}$/);
    expect(testSchema.databaseUrl).toBe(testDatabaseUrl());
    const exists = async () =>
      (await query(testSchema.databaseUrl, 'select 1 from pg_namespace where nspname = $1', [testSchema.schema]))
        .length === 1;
    expect(await exists()).toBe(false);

    await query(testSchema.databaseUrl, `create schema "${testSchema.schema}"`);
    await query(testSchema.databaseUrl, `create table "${testSchema.schema}".thing (id int)`);
    await testSchema.drop();
    expect(await exists()).toBe(false);
  });

  it('creates the test database when it does not exist yet, even when asked concurrently', async () => {
    const url = new URL(testDatabaseUrl());
    const databaseName = uniqueName('billing_test_db');
    url.pathname = `/${databaseName}`;
    process.env.TEST_DATABASE_URL = url.toString();
    const maintenanceUrl = new URL(url);
    maintenanceUrl.pathname = '/postgres';
    try {
      const schemas = await Promise.all([createTestSchema('a'), createTestSchema('b')]);
      expect(schemas.map((s) => s.databaseUrl)).toEqual([url.toString(), url.toString()]);
      const found = await query(maintenanceUrl.toString(), 'select 1 from pg_database where datname = $1', [
        databaseName,
      ]);
      expect(found).toHaveLength(1);
    } finally {
      await query(maintenanceUrl.toString(), `drop database if exists "${databaseName}"`);
    }
    // CREATE DATABASE copies a template on disk: seconds on a busy machine.
  }, 60_000);

  it('says clearly that Postgres is unreachable instead of skipping', async () => {
    process.env.TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:1/billing_test';
    await expect(createTestSchema('x')).rejects.toThrow(
      /Postgres is not reachable at postgresql:\/\/postgres@127\.0\.0\.1:1/,
    );
  });
});
