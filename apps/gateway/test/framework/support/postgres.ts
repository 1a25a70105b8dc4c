import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'billing_test';

export interface TestSchema {
  pool: pg.Pool;
  schema: string;
  drop(): Promise<void>;
}

/**
 * A pool on the shared `billing_test` database (created on first use) and a schema name unique
 * to the caller; drop() removes the schema and closes the pool.
 */
export async function useTestSchema(prefix: string): Promise<TestSchema> {
  await ensureDatabase();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  return {
    pool,
    schema,
    drop: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } catch (error) {
    // Another test file created it between the check and the CREATE.
    const code = (error as { code?: string }).code;
    if (code !== '42P04' && code !== '23505') throw error;
  } finally {
    await admin.end();
  }
}
