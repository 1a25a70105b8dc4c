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
import { ADMIN_COMMANDS, ADMIN_USAGE } from '../src/admin/commands.js';
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

/**
 * list-orgs' rows as the other commands print organizations: without `payment_gateways`, which
 * is empty here (no credentials are set; the payments contract tests check it with them).
 */
async function listedOrganizations(): Promise<Array<{ id: string; [field: string]: unknown }>> {
  const rows: Array<{ id: string; payment_gateways: string[] }> = await succeeds('list-orgs');
  return rows.map(({ payment_gateways, ...row }) => {
    expect(payment_gateways).toEqual([]);
    return row;
  });
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
        email: '',
        dunning_schedule_days: [1, 3, 7],
        reminder_schedule_days: [3, 10, 20],
        reminder_fee: '',
        features: { kickback: false, self_service: true },
        bank_accounts: [],
        created_at: expect.stringMatching(ISO_Z),
        test_clock_time: null,
        exchange_rates: [],
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
      email: '',
      dunning_schedule_days: [1, 3, 7],
      reminder_schedule_days: [3, 10, 20],
      reminder_fee: '',
      features: { kickback: false, self_service: true },
      bank_accounts: [],
      created_at: expect.stringMatching(ISO_Z),
      test_clock_time: null,
      exchange_rates: [],
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
    const listed = (await listedOrganizations()).find((row: { id: string }) => row.id === body.organization.id);
    expect(listed).toEqual(body.organization);
  });

  it('every option the usage shows for a command is one the command line takes', async () => {
    // The usage is made from the same declaration as the parser; run each documented option
    // through the built CLI with the database unreachable: a parse failure would exit 2.
    // A synopsis is a line indented by two spaces and its continuation lines, indented by eight
    // (the summary under it by six).
    const synopses = ADMIN_USAGE.split('\n')
      .filter((row) => /^( {2}[a-z]| {8})/.test(row))
      .join('\n')
      .split(/\n(?= {2}[a-z])/);
    expect(synopses.map((synopsis) => synopsis.trim().split(' ')[0])).toEqual(ADMIN_COMMANDS);
    const runs = synopses.flatMap((line) => {
      const [command] = line.trim().split(' ');
      const options = [...line.matchAll(/--([a-z-]+)( <[^>]+>)?/g)];
      expect(options.length > 0 || command === 'list-orgs').toBe(true);
      return options.map(([, option, takesValue]) => [command!, `--${option}`, ...(takesValue ? ['x'] : [])]);
    });
    // Four CLI processes at a time: each is a Node start-up.
    for (let i = 0; i < runs.length; i += 4) {
      await Promise.all(
        runs.slice(i, i + 4).map(async (args) => {
          const result = await runAdminCli(args, { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/billing' });
          expect({ args, code: result.code }).toEqual({ args, code: 1 });
        }),
      );
    }
  }, 300_000);

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
      email: '',
      dunning_schedule_days: [1, 3, 7],
      reminder_schedule_days: [3, 10, 20],
      reminder_fee: '',
      features: { kickback: false, self_service: true },
      bank_accounts: [],
      exchange_rates: [],
      created_at: expect.stringMatching(ISO_Z),
      test_clock_time: '2026-03-01T09:00:00.000Z',
    });
    const [row] = await sql<{ test_clock_time: string }>(
      `select to_char(test_clock_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as test_clock_time from organization where id = ?`,
      [organization.id],
    );
    expect(row).toEqual({ test_clock_time: '2026-03-01T09:00:00' });
    const organizations: Array<{ id: string }> = await listedOrganizations();
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

const refused = (...fields: Array<[string, string]>) => ({
  error: 'Invalid input.',
  reason: 'VALIDATION_FAILED',
  fields: fields.map(([field, description]) => ({ field, description })),
});

// biome-ignore lint/suspicious/noExplicitAny: list-orgs' JSON, checked field by field
async function listed(organizationId: string): Promise<any> {
  const organizations: Array<{ id: string }> = await listedOrganizations();
  return organizations.find((row) => row.id === organizationId);
}

const auditOf = (organizationId: string) =>
  sql<{ action: string; object_type: string; object_id: string; client_system: string; details: unknown }>(
    `select action, object_type, object_id, client_system, details from audit_log
      where organization_id = ? order by occurred_at`,
    [organizationId],
  );

// Each test runs the CLI several times (a Node start-up and a migration check each).
describe('e-mail and feature flags', { timeout: 120_000 }, () => {
  it('create-org takes --email and --feature; without --feature self_service is on and kickback off', async () => {
    const { organization } = await succeeds(
      'create-org',
      '--name',
      'Flags ApS',
      '--email',
      'faktura@flags.dk',
      '--feature',
      'kickback=on',
      '--feature',
      'self_service=off',
    );
    expect(organization).toMatchObject({
      email: 'faktura@flags.dk',
      features: { kickback: true, self_service: false },
    });
    expect(await sql('select features, email from organization where id = ?', [organization.id])).toEqual([
      { features: ['kickback'], email: 'faktura@flags.dk' },
    ]);
    const plain = (await succeeds('create-org', '--name', 'Defaults ApS')).organization;
    expect(await sql('select features from organization where id = ?', [plain.id])).toEqual([
      { features: ['self_service'] },
    ]);
  });

  it('refuses a bad e-mail and an unknown feature, naming them, and creates nothing', async () => {
    expect(await failsWith(['create-org', '--name', 'Bad Mail ApS', '--email', 'faktura@'], 1)).toEqual(
      refused(['email', 'Enter a valid email address.']),
    );
    expect(await failsWith(['create-org', '--name', 'Bad Mail ApS', '--feature', 'dunning=on'], 1)).toEqual(
      refused([
        'feature',
        '--feature must be <name>=on or <name>=off with a name of kickback, self_service; got "dunning=on".',
      ]),
    );
    expect(await sql(`select id from organization where name = 'Bad Mail ApS'`)).toEqual([]);
  });
});

describe('update-org', { timeout: 120_000 }, () => {
  it('changes every setting given, as list-orgs then shows, with one audit row of what changed', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Before ApS', '--city', 'Aarhus');
    const updated = await succeeds(
      'update-org',
      '--org',
      organization.id,
      '--name',
      'After ApS',
      '--country',
      'SE',
      '--payment-terms',
      '30',
      '--collection-method',
      'payment_card',
      '--rate-limit',
      '120',
      '--address',
      'Vesterbrogade 1',
      '--zipcode',
      '1620',
      '--city',
      'København V',
      '--vat-number',
      'DK12345678',
      '--email',
      'faktura@after.dk',
      '--feature',
      'kickback=on',
    );
    const expected = {
      ...organization,
      name: 'After ApS',
      country: 'SE',
      default_payment_terms: 30,
      default_collection_method: 'payment_card',
      rate_limit_per_minute: 120,
      address: 'Vesterbrogade 1',
      zipcode: '1620',
      city: 'København V',
      vat_number: 'DK12345678',
      email: 'faktura@after.dk',
      features: { kickback: true, self_service: true },
    };
    expect(updated).toEqual(expected);
    expect(await listed(organization.id)).toEqual(expected);
    expect(await auditOf(organization.id)).toEqual([
      expect.objectContaining({ action: 'organization.create' }),
      {
        action: 'organization.update',
        object_type: 'organization',
        object_id: organization.id,
        client_system: 'admin-cli',
        details: {
          changes: {
            name: { from: 'Before ApS', to: 'After ApS' },
            country: { from: 'DK', to: 'SE' },
            default_payment_terms: { from: 14, to: 30 },
            default_collection_method: { from: 'invoice', to: 'payment_card' },
            rate_limit_per_minute: { from: 60, to: 120 },
            features: { from: ['self_service'], to: ['kickback', 'self_service'] },
            address: { from: '', to: 'Vesterbrogade 1' },
            zipcode: { from: '', to: '1620' },
            city: { from: 'Aarhus', to: 'København V' },
            vat_number: { from: '', to: 'DK12345678' },
            email: { from: '', to: 'faktura@after.dk' },
          },
        },
      },
    ]);
  });

  it('leaves what is not given; an empty value clears a text; a flag switches alone', async () => {
    const { organization } = await succeeds(
      'create-org',
      '--name',
      'Partial ApS',
      '--vat-number',
      'DK12345678',
      '--email',
      'a@partial.dk',
    );
    const cleared = await succeeds('update-org', '--org', organization.id, '--vat-number', '');
    expect(cleared).toEqual({ ...organization, vat_number: '' });
    const off = await succeeds('update-org', '--org', organization.id, '--feature', 'self_service=off');
    expect(off).toEqual({ ...organization, vat_number: '', features: { kickback: false, self_service: false } });
    // The same values again: nothing changes, nothing is audited.
    await succeeds('update-org', '--org', organization.id, '--email', 'a@partial.dk');
    expect((await auditOf(organization.id)).map((row) => row.action)).toEqual([
      'organization.create',
      'organization.update',
      'organization.update',
    ]);
  });

  it('refuses the base currency, the time zone and test mode by name, and bad values, changing nothing', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Fixed ApS');
    const org = ['update-org', '--org', organization.id];
    expect(await failsWith([...org, '--currency', 'EUR'], 1)).toEqual(
      refused([
        'base_currency',
        'The base currency cannot change: MRR and draft line defaults of the organization are in it. Create a new organization instead.',
      ]),
    );
    expect(await failsWith([...org, '--name', 'Moved ApS', '--time-zone', 'Europe/Stockholm'], 1)).toEqual(
      refused([
        'time_zone',
        "The time zone cannot change: the organization's renewal times and invoice dates were computed in it. Create a new organization instead.",
      ]),
    );
    expect(await failsWith([...org, '--test-clock'], 1)).toEqual(
      refused(['test_clock', 'Test mode is chosen when the organization is created and cannot change.']),
    );
    expect(await failsWith([...org, '--email', 'not-an-address', '--country', 'XX', '--name', ''], 1)).toEqual(
      refused(
        ['name', 'This field may not be blank.'],
        ['country', '"XX" is not a valid choice.'],
        ['email', 'Enter a valid email address.'],
      ),
    );
    expect(await failsWith([...org, '--payment-terms=-1'], 1)).toEqual(
      refused(['default_payment_terms', 'Ensure this value is greater than or equal to 0.']),
    );
    expect(await failsWith(org, 1)).toEqual(
      refused(['non_field_errors', 'Nothing to change: give at least one setting.']),
    );
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await failsWith(['update-org', '--org', missing, '--name', 'X'], 1)).toEqual({
      error: `No organization with id ${missing}.`,
      reason: 'NOT_FOUND',
      fields: [],
    });
    expect(await listed(organization.id)).toEqual(organization);
    expect((await auditOf(organization.id)).map((row) => row.action)).toEqual(['organization.create']);
  });
});

describe('bank accounts', { timeout: 120_000 }, () => {
  it('add-bank-account takes IBAN and BIC or a Danish reg. and account no., list-orgs shows them by id', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Paid ApS');
    const iban = await succeeds(
      'add-bank-account',
      '--org',
      organization.id,
      '--iban',
      'dk50 0040 0440 1162 43',
      '--bic',
      'dabadkkk',
      '--currency',
      'EUR',
    );
    expect(iban).toEqual({
      id: expect.any(Number),
      currency: 'EUR',
      iban: 'DK5000400440116243',
      bic: 'DABADKKK',
      reg_number: '',
      account_number: '',
      created_at: expect.stringMatching(ISO_Z),
    });
    const domestic = await succeeds(
      'add-bank-account',
      '--org',
      organization.id,
      '--reg-number',
      '1234',
      '--account-number',
      '0001234567',
    );
    expect(domestic).toEqual({
      id: iban.id + 1,
      currency: null,
      iban: '',
      bic: '',
      reg_number: '1234',
      account_number: '0001234567',
      created_at: expect.stringMatching(ISO_Z),
    });
    expect((await listed(organization.id)).bank_accounts).toEqual([iban, domestic]);
    expect((await auditOf(organization.id)).slice(1)).toEqual([
      {
        action: 'bank_account.add',
        object_type: 'bank_account',
        object_id: String(iban.id),
        client_system: 'admin-cli',
        details: { currency: 'EUR', iban: 'DK5000400440116243', bic: 'DABADKKK', reg_number: '', account_number: '' },
      },
      {
        action: 'bank_account.add',
        object_type: 'bank_account',
        object_id: String(domestic.id),
        client_system: 'admin-cli',
        details: { currency: null, iban: '', bic: '', reg_number: '1234', account_number: '0001234567' },
      },
    ]);
  });

  it('refuses bad details, naming each, and a second account for a currency', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Refused Bank ApS');
    const add = (...args: string[]) => failsWith(['add-bank-account', '--org', organization.id, ...args], 1);
    expect(await add('--iban', 'DK5000400440116244', '--bic', 'DABADKK')).toEqual(
      refused(
        ['iban', 'The IBAN check digits do not match: check the number.'],
        ['bic', 'Enter a valid BIC: 8 or 11 letters and digits (bank, country, location, branch).'],
      ),
    );
    expect(await add('--reg-number', '12345', '--account-number', '12345678901')).toEqual(
      refused(
        ['reg_number', 'Enter the 4 digits of the registration number.'],
        ['account_number', 'Enter an account number of 1 to 10 digits.'],
      ),
    );
    expect(await add('--iban', 'DK5000400440116243', '--bic', 'DABADKKK', '--reg-number', '1234')).toEqual(
      refused(['non_field_errors', 'Give either --iban and --bic or --reg-number and --account-number, not both.']),
    );
    expect(await add()).toEqual(
      refused(['non_field_errors', 'Give --iban and --bic, or --reg-number and --account-number.']),
    );
    expect(await add('--reg-number', '1234', '--account-number', '1', '--currency', 'JPY')).toEqual(
      refused(['currency', '"JPY" is not a valid choice.']),
    );
    const dkk = await succeeds(
      'add-bank-account',
      '--org',
      organization.id,
      '--reg-number',
      '1234',
      '--account-number',
      '1',
      '--currency',
      'DKK',
    );
    expect(await add('--reg-number', '4321', '--account-number', '2', '--currency', 'DKK')).toEqual(
      refused(['currency', `Bank account ${dkk.id} already takes payments in DKK; remove it first.`]),
    );
    expect((await listed(organization.id)).bank_accounts).toEqual([dkk]);
  });

  it('remove-bank-account: list-orgs no longer shows it, its id is never given again, a second removal is 404', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Moving Bank ApS');
    const other = (await succeeds('create-org', '--name', 'Other Bank ApS')).organization;
    const add = async (id: string, ...args: string[]) => succeeds('add-bank-account', '--org', id, ...args);
    const old = await add(organization.id, '--reg-number', '1234', '--account-number', '1');
    // Another organization's bank account is not this one's to remove.
    expect(await failsWith(['remove-bank-account', '--org', other.id, '--bank-account', String(old.id)], 1)).toEqual({
      error: `No bank account ${old.id} in organization ${other.id}.`,
      reason: 'NOT_FOUND',
      fields: [],
    });
    const removed = await succeeds('remove-bank-account', '--org', organization.id, '--bank-account', String(old.id));
    expect(removed).toEqual({ ...old, removed_at: expect.stringMatching(ISO_Z) });
    expect((await listed(organization.id)).bank_accounts).toEqual([]);
    // The currency it took is free again; the new account has a new id.
    const next = await add(organization.id, '--reg-number', '4321', '--account-number', '2');
    expect(next.id).toBeGreaterThan(old.id);
    expect(
      await failsWith(['remove-bank-account', '--org', organization.id, '--bank-account', String(old.id)], 1),
    ).toEqual({
      error: `No bank account ${old.id} in organization ${organization.id}.`,
      reason: 'NOT_FOUND',
      fields: [],
    });
    expect((await auditOf(organization.id)).map((row) => [row.action, row.object_id])).toEqual([
      ['organization.create', organization.id],
      ['bank_account.add', String(old.id)],
      ['bank_account.remove', String(old.id)],
      ['bank_account.add', String(next.id)],
    ]);
  });
});

describe('the README', { timeout: 120_000 }, () => {
  it('update-org, add-bank-account and remove-bank-account run as the README types them', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Acme Billing');
    const org = organization.id;
    // npm run -s admin -- update-org --org <organization id> --email faktura@acme.dk --payment-terms 30 --feature kickback=on
    expect(
      await succeeds(
        'update-org',
        '--org',
        org,
        '--email',
        'faktura@acme.dk',
        '--payment-terms',
        '30',
        '--feature',
        'kickback=on',
      ),
    ).toEqual({
      ...organization,
      email: 'faktura@acme.dk',
      default_payment_terms: 30,
      features: { kickback: true, self_service: true },
    });
    // npm run -s admin -- add-bank-account --org <organization id> --iban "DK50 0040 0440 1162 43" --bic DABADKKK --currency EUR
    const eur = await succeeds(
      'add-bank-account',
      '--org',
      org,
      '--iban',
      'DK50 0040 0440 1162 43',
      '--bic',
      'DABADKKK',
      '--currency',
      'EUR',
    );
    // npm run -s admin -- add-bank-account --org <organization id> --reg-number 1234 --account-number 0001234567
    const domestic = await succeeds(
      'add-bank-account',
      '--org',
      org,
      '--reg-number',
      '1234',
      '--account-number',
      '0001234567',
    );
    expect((await listed(org)).bank_accounts).toEqual([eur, domestic]);
    // npm run -s admin -- remove-bank-account --org <organization id> --bank-account <id>
    await succeeds('remove-bank-account', '--org', org, '--bank-account', String(eur.id));
    expect((await listed(org)).bank_accounts).toEqual([domestic]);
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

  it('set-exchange-rate sets a rate from a day on, as list-orgs then shows, and names a wrong option', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Rates ApS');
    await succeeds(
      'set-exchange-rate',
      '--org',
      organization.id,
      '--currency',
      'EUR',
      '--rate',
      '7.45',
      '--from',
      '2026-01-01',
    );
    const rates = [
      { currency: 'EUR', rate: '7.45', valid_from: '2026-01-01' },
      { currency: 'EUR', rate: '7.46', valid_from: '2026-02-01' },
    ];
    expect(
      await succeeds(
        'set-exchange-rate',
        '--org',
        organization.id,
        '--currency',
        'EUR',
        '--rate',
        '7.46',
        '--from',
        '2026-02-01',
      ),
    ).toEqual({ ...organization, exchange_rates: rates });
    const organizations: Array<{ id: string }> = await listedOrganizations();
    expect(organizations.find((row) => row.id === organization.id)).toEqual({ ...organization, exchange_rates: rates });
    expect(
      await failsWith(
        ['set-exchange-rate', '--org', organization.id, '--currency', 'DKK', '--rate', '1', '--from', '2026-01-01'],
        1,
      ),
    ).toEqual({
      error: 'Invalid input.',
      reason: 'VALIDATION_FAILED',
      fields: [{ field: 'currency', description: 'DKK is the base currency: its rate is always 1.' }],
    });
  });

  it('set-rate-limit changes the organization, as list-orgs then shows', async () => {
    const { organization } = await succeeds('create-org', '--name', 'Busy ApS');
    expect(await succeeds('set-rate-limit', '--org', organization.id, '--per-minute', '120')).toEqual({
      ...organization,
      rate_limit_per_minute: 120,
    });
    const organizations: Array<{ id: string }> = await listedOrganizations();
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
