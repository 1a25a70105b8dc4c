/**
 * The admin command line as operators run it: the built `dist/admin/cli.js` in its own process,
 * configured only by DATABASE_URL and DB_SCHEMA, against a real throwaway schema. Output is JSON on
 * stdout; failures are JSON on stderr with a non-zero exit status (2 for an unusable command line).
 */
import { createHash } from 'node:crypto';
import { openOrm } from '@billing/db';
import { createTestSchema, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USAGE } from '../src/admin/commands.js';
import { accountsEntities } from '../src/db/entities/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { assertCliBuilt, type CliResult, runAdminCli } from './support/admin-cli.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = /^[0-9a-f]{40}$/;

let database: TestSchema;
/** Reads what the CLI wrote; the CLI itself creates and migrates the schema. */
let orm: MikroORM;

beforeAll(async () => {
  assertCliBuilt();
  database = await createTestSchema('accounts');
  orm = await openOrm({
    clientUrl: database.databaseUrl,
    schema: database.schema,
    entities: accountsEntities,
    migrations,
  });
});

afterAll(async () => {
  await orm?.close();
  await database?.drop();
});

const cli = (...args: string[]): Promise<CliResult> =>
  runAdminCli(args, { DATABASE_URL: database.databaseUrl, DB_SCHEMA: database.schema });

// biome-ignore lint/suspicious/noExplicitAny: the CLI's JSON output, checked field by field
async function succeeds(...args: string[]): Promise<any> {
  const result = await cli(...args);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(result.stdout);
}

async function failsWith(args: string[], code: number): Promise<Record<string, unknown>> {
  const result = await cli(...args);
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: '' });
  return JSON.parse(result.stderr.split('\n')[0]!);
}

const sql = <T>(query: string, params: unknown[] = []): Promise<T[]> =>
  orm.em.getConnection().execute<T[]>(query, params);

describe('create-org', () => {
  it('prints the organization with the gaps.md §10 defaults and a 40-hex token', async () => {
    const body = await succeeds('create-org', '--name', 'Acme ApS');
    expect(body).toEqual({
      organization: {
        id: expect.stringMatching(UUID),
        name: 'Acme ApS',
        country: 'DK',
        base_currency: 'DKK',
        time_zone: 'Europe/Copenhagen',
        default_payment_terms: 14,
        default_collection_method: 'invoice',
        rate_limit_per_minute: 60,
        address: '',
        zipcode: '',
        city: '',
        vat_number: '',
        created_at: expect.stringMatching(ISO_Z),
        test_clock_time: null,
      },
      token: {
        id: expect.stringMatching(UUID),
        name: 'API USER',
        token: expect.stringMatching(TOKEN),
        organization_id: body.organization.id,
      },
    });
  });

  it('stores the token only as its SHA-256: no column and no table of the schema holds it', async () => {
    const { organization, token } = await succeeds('create-org', '--name', 'Hashed Tokens A/S');
    const columns = await sql<{ column_name: string }>(
      `select column_name from information_schema.columns where table_schema = ? and table_name = 'api_user' order by column_name`,
      [database.schema],
    );
    expect(columns.map((column) => column.column_name)).toEqual([
      'created_at',
      'disabled_at',
      'id',
      'name',
      'organization_id',
      'permissions',
      'token_hash',
      'token_prefix',
    ]);
    expect(await sql('select * from api_user where organization_id = ?', [organization.id])).toEqual([
      {
        id: token.id,
        organization_id: organization.id,
        name: 'API USER',
        token_hash: createHash('sha256').update(token.token).digest('hex'),
        token_prefix: token.token.slice(0, 6),
        permissions: ['billing_read', 'billing_write'],
        // Raw SQL leaves timestamptz as Postgres prints it.
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/),
        disabled_at: null,
      },
    ]);
    // Every row of every table (audit log included), as text: the token appears nowhere.
    const tables = await sql<{ table_name: string }>(
      'select table_name from information_schema.tables where table_schema = ?',
      [database.schema],
    );
    for (const { table_name } of tables) {
      const [dump] = await sql<{ rows: string | null }>(`select json_agg(t)::text as rows from "${table_name}" t`);
      expect(dump?.rows ?? '').not.toContain(token.token);
    }
  });

  it('takes country, currency, time zone, payment terms, collection method and rate limit', async () => {
    const body = await succeeds(
      'create-org',
      '--name',
      'Svenska AB',
      '--country',
      'SE',
      '--currency',
      'SEK',
      '--time-zone',
      'Europe/Stockholm',
      '--payment-terms',
      '30',
      '--collection-method',
      'invoice',
      '--rate-limit',
      '120',
    );
    expect(body.organization).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Svenska AB',
      country: 'SE',
      base_currency: 'SEK',
      time_zone: 'Europe/Stockholm',
      default_payment_terms: 30,
      default_collection_method: 'invoice',
      rate_limit_per_minute: 120,
      address: '',
      zipcode: '',
      city: '',
      vat_number: '',
      created_at: expect.stringMatching(ISO_Z),
      test_clock_time: null,
    });
  });

  it('takes the seller details --address, --zipcode, --city and --vat-number (as the README types them)', async () => {
    const body = await succeeds(
      'create-org',
      '--name',
      'Acme Billing',
      '--country',
      'DK',
      '--currency',
      'DKK',
      '--time-zone',
      'Europe/Copenhagen',
      '--address',
      'Vesterbrogade 1',
      '--zipcode',
      '1620',
      '--city',
      'København V',
      '--vat-number',
      'DK12345678',
    );
    expect(body.organization).toMatchObject({
      name: 'Acme Billing',
      address: 'Vesterbrogade 1',
      zipcode: '1620',
      city: 'København V',
      vat_number: 'DK12345678',
    });
    const listed = (await succeeds('list-orgs')).find((row: { id: string }) => row.id === body.organization.id);
    expect(listed).toEqual(body.organization);
  });

  it('every option the usage shows for a command is one the command line takes', async () => {
    // The usage is made from the same declaration as the parser; run each documented option
    // through the built CLI with the database unreachable: a parse failure would exit 2.
    for (const line of ADMIN_USAGE.split('\n').filter((row) => /^ {2}[a-z]/.test(row))) {
      const [command] = line.trim().split(' ');
      const options = [...line.matchAll(/--([a-z-]+)( <[^>]+>)?/g)];
      expect(options.length > 0 || command === 'list-orgs').toBe(true);
      for (const [, option, takesValue] of options) {
        const args = [command!, `--${option}`, ...(takesValue ? ['x'] : [])];
        const result = await runAdminCli(args, { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/billing' });
        expect({ args, code: result.code }).toEqual({ args, code: 1 });
      }
    }
  });

  it('--test-clock-time puts the organization in test mode at that time, as the row and list-orgs show', async () => {
    const { organization } = await succeeds(
      'create-org',
      '--name',
      'Test Mode ApS',
      '--test-clock',
      '--test-clock-time',
      '2026-03-01T10:00:00+01:00',
    );
    expect(organization).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Test Mode ApS',
      country: 'DK',
      base_currency: 'DKK',
      time_zone: 'Europe/Copenhagen',
      default_payment_terms: 14,
      default_collection_method: 'invoice',
      rate_limit_per_minute: 60,
      address: '',
      zipcode: '',
      city: '',
      vat_number: '',
      created_at: expect.stringMatching(ISO_Z),
      test_clock_time: '2026-03-01T09:00:00.000Z',
    });
    const [row] = await sql<{ test_clock_time: string }>(
      `select to_char(test_clock_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as test_clock_time from organization where id = ?`,
      [organization.id],
    );
    expect(row).toEqual({ test_clock_time: '2026-03-01T09:00:00' });
    const organizations: Array<{ id: string }> = await succeeds('list-orgs');
    expect(organizations.find((listed) => listed.id === organization.id)).toEqual(organization);
    const [audit] = await sql<{ action: string; details: unknown }>(
      `select action, details from audit_log where organization_id = ? order by occurred_at`,
      [organization.id],
    );
    expect(audit).toEqual({ action: 'organization.create', details: { test_clock_time: '2026-03-01T09:00:00.000Z' } });
  });

  it('--test-clock alone starts the test clock at the current time', async () => {
    const before = Date.now();
    const { organization } = await succeeds('create-org', '--name', 'Clock Now ApS', '--test-clock');
    const after = Date.now();
    const time = Date.parse(organization.test_clock_time);
    expect(time).toBeGreaterThanOrEqual(before - 1);
    expect(time).toBeLessThanOrEqual(after);
    // The clock starts where the organization was created: the same service clock reading.
    expect(organization.test_clock_time).toBe(organization.created_at);
  });

  it('refuses a --test-clock-time that is no ISO 8601 timestamp, and creates nothing', async () => {
    expect(await failsWith(['create-org', '--name', 'Bad Clock ApS', '--test-clock-time', '2026-02-30'], 1)).toEqual({
      error: 'Invalid input.',
      reason: 'VALIDATION_FAILED',
      fields: [{ field: 'test-clock-time', description: '--test-clock-time must be an ISO 8601 timestamp.' }],
    });
    expect(await sql(`select id from organization where name = 'Bad Clock ApS'`)).toEqual([]);
  });

  it('refuses invalid values with a JSON error naming each field, and creates nothing', async () => {
    expect(await failsWith(['create-org', '--name', 'Refused ApS', '--country', 'XX', '--currency', 'JPY'], 1)).toEqual(
      {
        error: 'Invalid input.',
        reason: 'VALIDATION_FAILED',
        fields: [
          { field: 'country', description: '"XX" is not a valid choice.' },
          { field: 'base_currency', description: '"JPY" is not a valid choice.' },
        ],
      },
    );
    expect(await failsWith(['create-org', '--name', 'Refused ApS', '--time-zone', 'Mars/Olympus'], 1)).toEqual({
      error: 'Invalid input.',
      reason: 'VALIDATION_FAILED',
      fields: [{ field: 'time_zone', description: '"Mars/Olympus" is not a valid time zone.' }],
    });
    // Larger than the integer column: refused by name, not by a nameless database error.
    expect(await failsWith(['create-org', '--name', 'Refused ApS', '--rate-limit', '3000000000'], 1)).toEqual({
      error: 'Invalid input.',
      reason: 'VALIDATION_FAILED',
      fields: [
        { field: 'rate_limit_per_minute', description: 'Ensure this value is less than or equal to 2147483647.' },
      ],
    });
    expect(await failsWith(['create-org', '--country', 'SE'], 1)).toEqual({
      error: 'Invalid input.',
      reason: 'VALIDATION_FAILED',
      fields: [{ field: 'name', description: '--name is required.' }],
    });
    expect(await sql(`select id from organization where name = 'Refused ApS'`)).toEqual([]);
  });
});

describe('tokens and rate limits', () => {
  it('create-token, list-tokens (prefix only), disable-token, then list shows disabled_at', async () => {
    const { organization, token: first } = await succeeds('create-org', '--name', 'Token Owner ApS');
    const second = await succeeds('create-token', '--org', organization.id, '--name', 'CI');
    expect(second).toEqual({
      id: expect.stringMatching(UUID),
      name: 'CI',
      token: expect.stringMatching(TOKEN),
      organization_id: organization.id,
    });
    expect(second.token).not.toBe(first.token);

    const listing = await cli('list-tokens', '--org', organization.id);
    expect(listing.code).toBe(0);
    expect(listing.stdout).not.toContain(first.token);
    expect(listing.stdout).not.toContain(second.token);
    const listed = (token: { id: string; name: string; token: string }, disabledAt: unknown = null) => ({
      id: token.id,
      name: token.name,
      token_prefix: token.token.slice(0, 6),
      created_at: expect.stringMatching(ISO_Z),
      disabled_at: disabledAt,
    });
    expect(JSON.parse(listing.stdout)).toEqual([listed(first), listed(second)]);

    const disabled = await succeeds('disable-token', '--id', first.id);
    expect(disabled).toEqual(listed(first, expect.stringMatching(ISO_Z)));
    expect(await succeeds('list-tokens', '--org', organization.id)).toEqual([
      listed(first, disabled.disabled_at),
      listed(second),
    ]);
  });

  it('set-rate-limit changes the organization, as list-orgs then shows', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Busy ApS');
    expect(await succeeds('set-rate-limit', '--org', organization.id, '--per-minute', '120')).toEqual({
      ...organization,
      rate_limit_per_minute: 120,
    });
    const organizations: Array<{ id: string }> = await succeeds('list-orgs');
    expect(organizations.find((row) => row.id === organization.id)).toEqual({
      ...organization,
      rate_limit_per_minute: 120,
    });
    expect(await failsWith(['set-rate-limit', '--org', organization.id, '--per-minute', '0'], 1)).toEqual({
      error: 'Invalid input.',
      reason: 'VALIDATION_FAILED',
      fields: [{ field: 'rate_limit_per_minute', description: 'Ensure this value is greater than or equal to 1.' }],
    });
  });

  it('refuses a --org or --id that is not a UUID, and reports one that does not exist', async () => {
    for (const args of [
      ['create-token', '--org', 'acme'],
      ['list-tokens', '--org', '42'],
      ['set-rate-limit', '--org', 'acme', '--per-minute', '5'],
    ]) {
      expect(await failsWith(args, 1)).toEqual({
        error: 'Invalid input.',
        reason: 'VALIDATION_FAILED',
        fields: [{ field: 'org', description: '--org must be a UUID.' }],
      });
    }
    expect(await failsWith(['disable-token', '--id', 'first'], 1)).toEqual({
      error: 'Invalid input.',
      reason: 'VALIDATION_FAILED',
      fields: [{ field: 'id', description: '--id must be a UUID.' }],
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await failsWith(['create-token', '--org', missing], 1)).toEqual({
      error: `No organization with id ${missing}.`,
      reason: 'NOT_FOUND',
      fields: [],
    });
    expect(await failsWith(['disable-token', '--id', missing], 1)).toEqual({
      error: `No API token with id ${missing}.`,
      reason: 'NOT_FOUND',
      fields: [],
    });
  });
});

describe('command line', () => {
  it('--help prints the usage on stdout and exits 0', async () => {
    expect(await cli('--help')).toEqual({ code: 0, stdout: `${ADMIN_USAGE}\n`, stderr: '' });
  });

  it.each([
    [['drop-org'], 'Unknown command "drop-org".'],
    [[], 'No command given.'],
    [['create-org', '--name', 'Acme', '--colour', 'red'], `Unknown option '--colour'`],
    [['create-org', '--name'], `Option '--name <value>' argument missing`],
    [['create-org', '--name', 'Acme', '--per-minute', '5'], `Unknown option '--per-minute'`],
    [['list-orgs', 'extra'], `Unexpected argument 'extra'. This command does not take positional arguments`],
  ])('%j exits 2 with a JSON error and the usage on stderr', async (args, error) => {
    expect(await cli(...args)).toEqual({
      code: 2,
      stdout: '',
      stderr: `${JSON.stringify({ error })}\n${ADMIN_USAGE}\n`,
    });
  });

  it('an unreachable database exits 1 with a hint, never echoing the password', async () => {
    const result = await runAdminCli(['list-orgs'], {
      DATABASE_URL: 'postgresql://postgres:s3cret@127.0.0.1:1/billing',
      DB_SCHEMA: database.schema,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error:
        'cannot use the database at postgresql://postgres:***@127.0.0.1:1/billing: connect ECONNREFUSED 127.0.0.1:1',
      hint: 'start the platform with `npm start` (embedded PostgreSQL) or set DATABASE_URL',
    });
  });

  it('a mistyped option is reported even when the database is down: options are checked first', async () => {
    const result = await runAdminCli(['create-token', '--org', 'acme'], {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/billing',
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error: 'Invalid input.',
      reason: 'VALIDATION_FAILED',
      fields: [{ field: 'org', description: '--org must be a UUID.' }],
    });
  });
});
