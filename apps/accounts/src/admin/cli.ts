import { parseArgs } from 'node:util';
import { systemClock } from '@billing/clock';
import { sealingKey, sealSecret } from '@billing/config';
import { migrate, openOrm } from '@billing/db';
import { isAppError } from '@billing/errors';
import type { MikroORM } from '@mikro-orm/postgresql';
import { accountsEntities } from '../db/entities/index.js';
import { migrations } from '../db/migrations/index.js';
import { removeGatewayCredentials, setGatewayCredentials } from '../use-cases/gateway-credentials.js';
import { importAccountBudgets, importEinvoiceFieldMappings } from '../use-cases/imported-data.js';
import {
  addBankAccount,
  createApiToken,
  createOrganization,
  disableApiToken,
  listApiTokens,
  listOrganizations,
  removeBankAccount,
  setExchangeRate,
  setRateLimit,
  updateOrganization,
} from '../use-cases/organizations.js';
import { ADMIN_USAGE, commandOptions, isAdminCommand, parseAdminCommand } from './commands.js';

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

/**
 * The command comes first (`create-org --name ...`); its options are parsed against that command's
 * own declaration, so an option of another command is as unknown as a typo.
 */
function parseCommandLine(args: string[]) {
  const [first, ...rest] = args;
  if (first === undefined) fail({ error: 'No command given.' }, USAGE_ERROR, true);
  if (first === '--help' || first === '-h') {
    console.log(ADMIN_USAGE);
    process.exit(0);
  }
  if (!isAdminCommand(first)) fail({ error: `Unknown command "${first}".` }, USAGE_ERROR, true);
  try {
    const { values } = parseArgs({
      args: rest,
      options: { ...commandOptions(first), help: { type: 'boolean', short: 'h' } },
    });
    return { command: first, values };
  } catch (error) {
    // An unknown or valueless option: say which, as JSON like every other failure, not a stack trace.
    fail({ error: (error as Error).message }, USAGE_ERROR, true);
  }
}

const { command, values } = parseCommandLine(process.argv.slice(2));

if (values.help) {
  console.log(ADMIN_USAGE);
  process.exit(0);
}

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
    updateOrganization: (organizationId, changes) => updateOrganization(deps, organizationId, changes),
    setExchangeRate: (organizationId, rate) => setExchangeRate(deps, organizationId, rate),
    addBankAccount: (organizationId, details) => addBankAccount(deps, organizationId, details),
    removeBankAccount: (organizationId, id) => removeBankAccount(deps, organizationId, id),
    createApiToken: (organizationId, name) => createApiToken(deps, organizationId, name),
    listApiTokens: (organizationId) => listApiTokens(deps, organizationId),
    disableApiToken: (apiUserId) => disableApiToken(deps, apiUserId),
    setRateLimit: (organizationId, perMinute) => setRateLimit(deps, organizationId, perMinute),
    importAccountBudgets: (organizationId, rows) => importAccountBudgets(deps, organizationId, rows),
    importEinvoiceFieldMappings: (organizationId, rows) => importEinvoiceFieldMappings(deps, organizationId, rows),
    setGatewayCredentials: (organizationId, gateway, credentials) => {
      // Read only by the command that needs it: the other commands work without a key.
      const key = sealingKey(process.env.GATEWAY_CREDENTIALS_KEY);
      return setGatewayCredentials(deps, organizationId, gateway, credentials, (plaintext) =>
        sealSecret(key, plaintext),
      );
    },
    removeGatewayCredentials: (organizationId, gateway) => removeGatewayCredentials(deps, organizationId, gateway),
  });
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  console.error(JSON.stringify(describeError(error)));
  process.exitCode = 1;
} finally {
  await orm.close();
}
