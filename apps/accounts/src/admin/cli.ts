import { parseArgs } from 'node:util';
import { systemClock } from '@billing/clock';
import { migrate, openOrm } from '@billing/db';
import { isAppError } from '@billing/errors';
import type { MikroORM } from '@mikro-orm/postgresql';
import { accountsEntities } from '../db/entities/index.js';
import { migrations } from '../db/migrations/index.js';
import {
  createApiToken,
  createOrganization,
  disableApiToken,
  listApiTokens,
  listOrganizations,
  setRateLimit,
} from '../use-cases/organizations.js';
import { ADMIN_USAGE, isAdminCommand, parseAdminCommand } from './commands.js';

/** Where `npm start` keeps its embedded PostgreSQL; the CLI talks to it when DATABASE_URL is unset. */
const EMBEDDED_DATABASE_URL = 'postgresql://postgres:postgres@127.0.0.1:54329/billing';

/** Exit status of a command line the CLI cannot make sense of (as getopt-style tools do). */
const USAGE_ERROR = 2;

function fail(body: Record<string, unknown>, exitCode: number, withUsage = false): never {
  console.error(JSON.stringify(body));
  if (withUsage) console.error(ADMIN_USAGE);
  process.exit(exitCode);
}

function describeError(error: unknown): Record<string, unknown> {
  return isAppError(error)
    ? { error: error.message, reason: error.reason, fields: error.fieldViolations }
    : { error: (error as Error).message };
}

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        country: { type: 'string' },
        currency: { type: 'string' },
        'time-zone': { type: 'string' },
        'payment-terms': { type: 'string' },
        'collection-method': { type: 'string' },
        'rate-limit': { type: 'string' },
        org: { type: 'string' },
        id: { type: 'string' },
        'per-minute': { type: 'string' },
        'test-clock': { type: 'boolean' },
        'test-clock-time': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // An unknown or valueless option: say which, as JSON like every other failure, not a stack trace.
    fail({ error: (error as Error).message }, USAGE_ERROR, true);
  }
}

const { positionals, values } = parseCommandLine();

if (values.help) {
  console.log(ADMIN_USAGE);
  process.exit(0);
}
const [command] = positionals;
if (command === undefined) fail({ error: 'No command given.' }, USAGE_ERROR, true);
if (!isAdminCommand(command)) fail({ error: `Unknown command "${command}".` }, USAGE_ERROR, true);

// Options are checked before connecting, so a typo is reported as such even with the database down.
function parseOptions(name: string) {
  try {
    return parseAdminCommand(name, values);
  } catch (error) {
    fail(describeError(error), 1);
  }
}
const run = parseOptions(command);

const databaseUrl = process.env.DATABASE_URL ?? EMBEDDED_DATABASE_URL;
const schema = process.env.DB_SCHEMA ?? 'accounts';
const orm: MikroORM = await openOrm({ clientUrl: databaseUrl, schema, entities: accountsEntities, migrations }).catch(
  (error: unknown) => fail({ error: `cannot open schema "${schema}": ${(error as Error).message}` }, 1),
);
try {
  // The first query is where an unreachable database shows up (MikroORM connects lazily).
  await migrate(orm);
} catch (error) {
  await orm.close().catch(() => {});
  fail(
    {
      error: `cannot use the database at ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}: ${(error as Error).message}`,
      hint: 'start the platform with `npm start` (embedded PostgreSQL) or set DATABASE_URL',
    },
    1,
  );
}

try {
  const deps = { orm, clock: systemClock };
  const result = await run({
    createOrganization: (settings) => createOrganization(deps, settings),
    listOrganizations: () => listOrganizations(deps),
    createApiToken: (organizationId, name) => createApiToken(deps, organizationId, name),
    listApiTokens: (organizationId) => listApiTokens(deps, organizationId),
    disableApiToken: (apiUserId) => disableApiToken(deps, apiUserId),
    setRateLimit: (organizationId, perMinute) => setRateLimit(deps, organizationId, perMinute),
  });
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  console.error(JSON.stringify(describeError(error)));
  process.exitCode = 1;
} finally {
  await orm.close();
}
