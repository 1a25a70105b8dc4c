import pg from 'pg';
import { uniqueName } from './unique-name.js';

const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing_test';
const MAX_IDENTIFIER_LENGTH = 63;

export interface TestSchema {
  /** Connection string of the shared test database; the schema isolates this test run. */
  databaseUrl: string;
  /** `${prefix}_t_<random>`, not yet created: the service's migrations create it. */
  schema: string;
  drop(): Promise<void>;
}

export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
}

/**
 * Reserves a throwaway schema in the test database (created on first use), so integration tests
 * run the real migrations against real Postgres without seeing each other's rows.
 */
export async function createTestSchema(prefix: string): Promise<TestSchema> {
  const databaseUrl = testDatabaseUrl();
  await ensureDatabase(databaseUrl);
  const schema = uniqueName(`${prefix}_t`);
  if (!/^[a-z_]/.test(schema) || schema.length > MAX_IDENTIFIER_LENGTH) {
    throw new Error(`Test schema prefix "${prefix}" gives an invalid Postgres schema name "${schema}"`);
  }
  return {
    databaseUrl,
    schema,
    drop: async () => {
      await withClient(databaseUrl, (client) => client.query(`drop schema if exists "${schema}" cascade`));
    },
  };
}

const ensured = new Map<string, Promise<void>>();

function ensureDatabase(databaseUrl: string): Promise<void> {
  let pending = ensured.get(databaseUrl);
  if (!pending) {
    pending = createDatabaseIfMissing(databaseUrl);
    ensured.set(databaseUrl, pending);
    pending.catch(() => ensured.delete(databaseUrl));
  }
  return pending;
}

async function createDatabaseIfMissing(databaseUrl: string): Promise<void> {
  try {
    await withClient(databaseUrl, (client) => client.query('select 1'));
    return;
  } catch (error) {
    if (sqlState(error) !== 'invalid_catalog_name') throw error;
  }
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  try {
    await withClient(url.toString(), (client) => client.query(`create database "${name.replaceAll('"', '""')}"`));
  } catch (error) {
    // Parallel test workers race to create it; whoever loses finds it already there.
    const state = sqlState(error);
    if (state !== 'duplicate_database' && state !== 'unique_violation') throw error;
  }
}

async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    if (sqlState(error) === 'invalid_catalog_name') throw error;
    throw new Error(
      `Postgres is not reachable at ${redact(connectionString)}: ${(error as Error).message}. ` +
        'Start it or point TEST_DATABASE_URL at a running server.',
      { cause: error },
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const SQL_STATES: Record<string, string> = {
  '3D000': 'invalid_catalog_name',
  '42P04': 'duplicate_database',
  '23505': 'unique_violation',
};

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? SQL_STATES[code] : undefined;
}

function redact(connectionString: string): string {
  const url = new URL(connectionString);
  if (url.password) url.password = '***';
  return url.toString();
}
