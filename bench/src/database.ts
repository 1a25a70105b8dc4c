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

/**
 * Refreshes the planner's statistics of the tables the measured read touches. A production
 * database has them (autovacuum analyzes after bulk inserts); a freshly seeded one, or one whose
 * autovacuum is off (as on some test machines), has none, and the planner then guesses: on this
 * read it joined the reseller through the (organization, code) index, scanning every account of
 * the organization per request, and Postgres spent about 4x the CPU of the analyzed plan on both
 * sides, hiding the platform's own cost in the ratio.
 */
export async function analyzeTables(databaseUrl: string, schema: string, tables: readonly string[]): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    for (const table of tables) {
      const name = `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
      // A table its service does not keep yet has nothing to analyze (nor to read).
      const { rows } = await client.query<{ found: string | null }>('select to_regclass($1) as found', [name]);
      if (rows[0]?.found) await client.query(`analyze ${name}`);
    }
  });
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
