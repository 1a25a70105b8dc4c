import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type ClusterLocation, locateCluster } from './cluster-location.js';
import { EmbeddedPostgres, packagedBinaries } from './embedded-postgres-package.js';
import { initialiseCluster } from './initdb.js';
import { type PostgresProcess, spawnPostgres } from './postgres-process.js';
import { postgresUser } from './postgres-user.js';

export interface EmbeddedDatabase {
  url: string;
  /** Where the data is, for people: `.data/postgres`, or `.data/postgres → <where it links to>`. */
  dataLocation: string;
  stop(): Promise<void>;
}

export const EMBEDDED_PORT = 54329;
export const EMBEDDED_DATABASE = 'billing';
export const EMBEDDED_URL = `postgresql://postgres:postgres@127.0.0.1:${EMBEDDED_PORT}/${EMBEDDED_DATABASE}`;

/** How much of PostgreSQL's own log is kept to explain a failed start. */
const LOG_TAIL_CHARS = 2_000;

/**
 * A real PostgreSQL from npm, data kept in `<dataDir>/postgres` across runs, so a machine with only
 * Node runs the platform. The admin command line reaches the same database at EMBEDDED_URL.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  let log = '';
  const onLog = (message: string) => {
    log = (log + message).slice(-LOG_TAIL_CHARS);
  };
  // Started as root, PostgreSQL runs as the "postgres" user, with binaries and data it can reach.
  const runAs = await postgresUser();
  const cluster: ClusterLocation = await locateCluster(databaseDir, packagedBinaries, runAs);
  const postgres = new EmbeddedPostgres({
    databaseDir: cluster.dataDir,
    user: 'postgres',
    password: 'postgres',
    port: EMBEDDED_PORT,
    persistent: true,
    onLog,
  });
  let server: PostgresProcess;
  try {
    if (!existsSync(join(cluster.dataDir, 'PG_VERSION'))) {
      await initialiseCluster({
        initdb: cluster.binaries.initdb,
        dataDir: cluster.dataDir,
        user: 'postgres',
        password: 'postgres',
        runAs,
        onLog,
      });
    }
    log = ''; // initdb's chatter would bury why the server itself did not start
    server = await spawnPostgres({
      binary: cluster.binaries.postgres,
      dataDir: cluster.dataDir,
      port: EMBEDDED_PORT,
      runAs,
      onLog,
    });
  } catch (error) {
    // The server's own log says why it could not start (port taken, another server on the folder).
    throw new Error(explainFailedStart(error, log, cluster.dataDir, runAs !== undefined), { cause: error });
  }
  try {
    // Checked on every start, not only after initdb: a first start that died between initdb and
    // here (port taken, Ctrl-C) must not leave a cluster without the database for good.
    await ensureDatabase(postgres);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: EMBEDDED_URL, dataLocation: cluster.description, stop: () => server.stop() };
}

async function ensureDatabase(postgres: EmbeddedPostgres): Promise<void> {
  const client = postgres.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (rowCount === 0) await client.query(`create database "${EMBEDDED_DATABASE}"`);
  } finally {
    await client.end();
  }
}

function explainFailedStart(error: unknown, log: string, databaseDir: string, asRoot: boolean): string {
  const lines = [`embedded PostgreSQL (data in ${databaseDir}) did not start`];
  if (error instanceof Error) lines.push(error.message);
  if (/could not bind|Address already in use/i.test(log)) {
    lines.push(
      `port ${EMBEDDED_PORT} is taken: is another \`npm start\` running? Stop it, or set DATABASE_URL to use another PostgreSQL.`,
    );
  } else if (/postmaster\.pid/.test(log)) {
    // PostgreSQL runs in a process group of its own, so an `npm start` killed outright (kill -9)
    // leaves it running; say how to stop it.
    const pid = /PID (\d+)/.exec(log)?.[1];
    lines.push(
      pid
        ? `another PostgreSQL (PID ${pid}) is running on ${databaseDir}: another \`npm start\`, or one killed before it could stop it. Stop it with \`kill -INT ${pid}\`.`
        : `another PostgreSQL is running on ${databaseDir}.`,
    );
  }
  if (asRoot && /Permission denied/i.test(`${log} ${(error as Error | undefined)?.message ?? ''}`)) {
    lines.push(
      `started as root, PostgreSQL runs as the "postgres" user, which must be able to reach ${databaseDir}: ` +
        'choose a DATA_DIR whose parent folders every user may enter, or start as a non-root user.',
    );
  }
  if (log.trim()) lines.push(`PostgreSQL said: ${log.trim()}`);
  return lines.join('\n');
}
