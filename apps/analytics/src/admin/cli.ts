import { parseArgs } from 'node:util';
import { migrate, openOrm } from '@billing/db';
import { isUuid } from '@billing/domain-kit';
import { isAppError } from '@billing/errors';
import { analyticsEntities } from '../db/entities/index.js';
import { migrations } from '../db/migrations/index.js';
import { rebuildOrganization } from '../use-cases/rebuild.js';

/** Where `npm start` keeps its embedded PostgreSQL; used when DATABASE_URL is unset. */
const EMBEDDED_DATABASE_URL = 'postgresql://postgres:postgres@127.0.0.1:54329/billing';

const USAGE = [
  'usage: npm run -s analytics-admin -- rebuild --org <organization id>',
  '  rebuild: the organization’s activities, account activities and MRR made again from the events',
  '  analytics applied (its journal), in one transaction; manual activities are kept.',
  'DATABASE_URL selects the database (default: the embedded one of `npm start`); DB_SCHEMA the schema (analytics).',
].join('\n');

function fail(body: Record<string, unknown>, exitCode: number): never {
  console.error(JSON.stringify(body));
  if (exitCode === 2) console.error(USAGE);
  process.exit(exitCode);
}

/** The analytics operator command line: `rebuild --org <id>` prints what the rebuild made. */
async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArgs<{ options: { org: { type: 'string' } }; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), options: { org: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    fail({ error: (error as Error).message }, 2);
  }
  const [command, ...rest] = parsed.positionals;
  if (command !== 'rebuild' || rest.length > 0)
    fail({ error: `Unknown command "${command ?? ''}"; one of rebuild.` }, 2);
  const organization = parsed.values.org;
  if (!organization || !isUuid(organization)) fail({ error: '--org must be an organization id (a UUID).' }, 1);
  const orm = await openOrm({
    clientUrl: process.env.DATABASE_URL ?? EMBEDDED_DATABASE_URL,
    schema: process.env.DB_SCHEMA ?? 'analytics',
    entities: analyticsEntities,
    migrations,
  });
  try {
    await migrate(orm);
    console.log(JSON.stringify(await rebuildOrganization(orm, organization)));
  } catch (error) {
    fail(isAppError(error) ? { error: error.message, reason: error.reason } : { error: (error as Error).message }, 1);
  } finally {
    await orm.close();
  }
}

await main();
