import { parseArgs } from 'node:util';
import { systemClock } from '@billing/clock';
import { migrate, openOrm } from '@billing/db';
import { isAppError } from '@billing/errors';
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
import { ADMIN_USAGE, runAdminCommand } from './commands.js';

/** Where `npm start` keeps its embedded PostgreSQL; the CLI talks to it when DATABASE_URL is unset. */
const EMBEDDED_DATABASE_URL = 'postgresql://postgres:postgres@127.0.0.1:54329/billing';

const { positionals, values } = parseArgs({
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
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help || positionals.length === 0) {
  console.log(ADMIN_USAGE);
  process.exit(values.help ? 0 : 2);
}

const databaseUrl = process.env.DATABASE_URL ?? EMBEDDED_DATABASE_URL;
const orm = await openOrm({
  clientUrl: databaseUrl,
  schema: process.env.DB_SCHEMA ?? 'accounts',
  entities: accountsEntities,
  migrations,
}).catch((error: unknown) => {
  console.error(
    JSON.stringify({
      error: `cannot reach the database at ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}: ${(error as Error).message}`,
      hint: 'start the platform with `npm start` (embedded PostgreSQL) or set DATABASE_URL',
    }),
  );
  process.exit(1);
});

try {
  await migrate(orm);
  const deps = { orm, clock: systemClock };
  const result = await runAdminCommand(positionals[0]!, values, {
    createOrganization: (settings) => createOrganization(deps, settings),
    listOrganizations: () => listOrganizations(deps),
    createApiToken: (organizationId, name) => createApiToken(deps, organizationId, name),
    listApiTokens: (organizationId) => listApiTokens(deps, organizationId),
    disableApiToken: (apiUserId) => disableApiToken(deps, apiUserId),
    setRateLimit: (organizationId, perMinute) => setRateLimit(deps, organizationId, perMinute),
  });
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  const body = isAppError(error)
    ? { error: error.message, reason: error.reason, fields: error.fieldViolations }
    : { error: (error as Error).message };
  console.error(JSON.stringify(body));
  process.exitCode = 1;
} finally {
  await orm.close();
}
