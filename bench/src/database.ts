import pg from 'pg';

/**
 * Creates the benchmark database when it does not exist yet, so `npm run bench` works against a
 * fresh Postgres with nothing but a superuser (the default is the local trust user `postgres`).
 */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  try {
    await withClient(databaseUrl, (client) => client.query('select 1'));
    return;
  } catch (error) {
    if (sqlState(error) !== '3D000') throw error; // 3D000 invalid_catalog_name: database missing
  }
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  try {
    await withClient(url.toString(), (client) => client.query(`create database ${quoteIdentifier(name)}`));
  } catch (error) {
    // Another run created it in between: that is what we wanted anyway.
    if (sqlState(error) !== '42P04') throw error;
  }
}

export async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
