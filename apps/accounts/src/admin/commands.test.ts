/**
 * The admin commands' option handling, without a database: which operation each command calls with
 * which arguments, and which command lines are refused before any operation runs.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BankAccountRow } from '../db/entities/bank-account.entity.js';
import type { OrganizationRow } from '../db/entities/organization.entity.js';
import { type AdminOperations, parseAdminCommand, runAdminCommand } from './commands.js';

const ORG_ID = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const TOKEN_ID = '7b7e1c2a-0e0f-4d8c-8c3e-2f9a6b1d4e57';

const organization: OrganizationRow = {
  id: ORG_ID,
  name: 'Acme',
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
  features: ['self_service'],
  created_at: new Date('2026-01-15T09:00:00Z'),
  test_clock_time: null,
  exchange_rates: [],
};

const bankAccount: BankAccountRow = {
  id: 3,
  organization_id: ORG_ID,
  currency: null,
  iban: '',
  bic: '',
  reg_number: '1234',
  account_number: '1234567890',
  created_at: new Date('2026-01-16T09:00:00Z'),
  removed_at: null,
};

const BANK_ACCOUNT_JSON = {
  id: 3,
  currency: null,
  iban: '',
  bic: '',
  reg_number: '1234',
  account_number: '1234567890',
  created_at: '2026-01-16T09:00:00.000Z',
};

const ORGANIZATION_JSON = {
  id: ORG_ID,
  name: 'Acme',
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
  created_at: '2026-01-15T09:00:00.000Z',
  test_clock_time: null,
  exchange_rates: [],
};

const IMPORTED = { imported: 1, added: 1, updated: 0, removed: 0 };

/** Operations that record their calls and answer with fixed rows. */
function recordingOperations() {
  const calls: Array<[string, ...unknown[]]> = [];
  const token = { id: TOKEN_ID, name: 'API USER', token: 'a'.repeat(40), organization_id: ORG_ID };
  const listing = { id: TOKEN_ID, name: 'API USER', token_prefix: 'aaaaaa', created_at: '', disabled_at: null };
  const record = <T>(call: [string, ...unknown[]], result: T): T => {
    calls.push(call);
    return result;
  };
  const operations: AdminOperations = {
    createOrganization: async (settings) => record(['createOrganization', settings], { organization, token }),
    listOrganizations: async () =>
      record(['listOrganizations'], [{ organization, bank_accounts: [], payment_gateways: ['cardgw_a'] }]),
    updateOrganization: async (id, changes) =>
      record(['updateOrganization', id, changes], { organization, bank_accounts: [bankAccount] }),
    addBankAccount: async (id, details) => record(['addBankAccount', id, details], bankAccount),
    removeBankAccount: async (id, bankAccountId) =>
      record(['removeBankAccount', id, bankAccountId], {
        ...bankAccount,
        removed_at: new Date('2026-01-17T09:00:00Z'),
      }),
    createApiToken: async (id, name) => record(['createApiToken', id, name], token),
    listApiTokens: async (id) => record(['listApiTokens', id], [listing]),
    disableApiToken: async (id) => record(['disableApiToken', id], listing),
    setRateLimit: async (id, perMinute) => record(['setRateLimit', id, perMinute], { organization, bank_accounts: [] }),
    importAccountBudgets: async (id, rows) => record(['importAccountBudgets', id, rows], IMPORTED),
    importEinvoiceFieldMappings: async (id, rows) => record(['importEinvoiceFieldMappings', id, rows], IMPORTED),
    setGatewayCredentials: async (id, gateway, credentials) =>
      record(['setGatewayCredentials', id, gateway, credentials], {
        organization_id: id,
        gateway,
        configured: true,
        updated_at: '2026-01-18T09:00:00.000Z',
      }),
    removeGatewayCredentials: async (id, gateway) =>
      record(['removeGatewayCredentials', id, gateway], {
        organization_id: id,
        gateway,
        configured: false,
        updated_at: null,
      }),
    setExchangeRate: async (id, rate) =>
      record(['setExchangeRate', id, rate], {
        organization: { ...organization, exchange_rates: [rate] },
        bank_accounts: [],
      }),
  };

  return { calls, operations, token, listing };
}

describe('admin commands', () => {
  it('set-exchange-rate sets the rate of a currency from a day and prints the organization with its rates', async () => {
    const { calls, operations } = recordingOperations();
    const rate = { currency: 'EUR', rate: '7.46', valid_from: '2026-01-01' };
    expect(
      await runAdminCommand(
        'set-exchange-rate',
        { org: ORG_ID, currency: 'EUR', rate: '7.46', from: '2026-01-01' },
        operations,
      ),
    ).toEqual({ ...ORGANIZATION_JSON, exchange_rates: [rate] });
    expect(calls).toEqual([['setExchangeRate', ORG_ID, rate]]);
  });

  it('create-org passes only the settings given, leaving the rest to the defaults', async () => {
    const { calls, operations, token } = recordingOperations();
    expect(await runAdminCommand('create-org', { name: 'Acme' }, operations)).toEqual({
      organization: ORGANIZATION_JSON,
      token,
    });
    expect(calls).toEqual([['createOrganization', { name: 'Acme' }]]);
  });

  it('create-org maps every option to its organization setting', async () => {
    const { calls, operations } = recordingOperations();
    const options = {
      name: 'Acme',
      country: 'SE',
      currency: 'SEK',
      'time-zone': 'Europe/Stockholm',
      'payment-terms': '30',
      'collection-method': 'invoice',
      'rate-limit': '120',
      address: 'Drottninggatan 1',
      zipcode: '111 51',
      city: 'Stockholm',
      'vat-number': 'SE556677889901',
      email: 'faktura@acme.se',
      feature: ['kickback=on', 'self_service=off'],
    };
    await runAdminCommand('create-org', options, operations);
    expect(calls).toEqual([
      [
        'createOrganization',
        {
          name: 'Acme',
          country: 'SE',
          base_currency: 'SEK',
          time_zone: 'Europe/Stockholm',
          default_payment_terms: 30,
          default_collection_method: 'invoice',
          rate_limit_per_minute: 120,
          address: 'Drottninggatan 1',
          zipcode: '111 51',
          city: 'Stockholm',
          vat_number: 'SE556677889901',
          email: 'faktura@acme.se',
          features: ['kickback'],
        },
      ],
    ]);
  });

  it('update-org passes only the settings given, features as flags to switch', async () => {
    const { calls, operations } = recordingOperations();
    const printed = await runAdminCommand(
      'update-org',
      { org: ORG_ID, email: 'faktura@acme.se', 'vat-number': '', 'payment-terms': '30', feature: ['kickback=on'] },
      operations,
    );
    expect(printed).toEqual({ ...ORGANIZATION_JSON, bank_accounts: [BANK_ACCOUNT_JSON] });
    expect(calls).toEqual([
      [
        'updateOrganization',
        ORG_ID,
        { email: 'faktura@acme.se', vat_number: '', default_payment_terms: 30, features: { kickback: true } },
      ],
    ]);
  });

  it('update-org takes the dunning schedule as days separated by commas ("" or none: no retries)', async () => {
    const { calls, operations } = recordingOperations();
    await runAdminCommand('update-org', { org: ORG_ID, 'dunning-days': '2, 5,10' }, operations);
    await runAdminCommand('update-org', { org: ORG_ID, 'dunning-days': 'none' }, operations);
    expect(calls).toEqual([
      ['updateOrganization', ORG_ID, { dunning_schedule_days: [2, 5, 10] }],
      ['updateOrganization', ORG_ID, { dunning_schedule_days: [] }],
    ]);
    expect(() => parseAdminCommand('update-org', { org: ORG_ID, 'dunning-days': '1;3' })).toThrow(
      expect.objectContaining({
        fieldViolations: [
          { field: 'dunning-days', description: '--dunning-days must be whole days separated by commas, e.g. 1,3,7.' },
        ],
      }),
    );
  });

  it('update-org takes the reminder schedule as days separated by commas and the fee per reminder (none: no fee)', async () => {
    const { calls, operations } = recordingOperations();
    await runAdminCommand(
      'update-org',
      { org: ORG_ID, 'reminder-days': '5, 15', 'reminder-fee': '100.00' },
      operations,
    );
    await runAdminCommand('update-org', { org: ORG_ID, 'reminder-days': 'none', 'reminder-fee': 'none' }, operations);
    expect(calls).toEqual([
      ['updateOrganization', ORG_ID, { reminder_schedule_days: [5, 15], reminder_fee: '100.00' }],
      ['updateOrganization', ORG_ID, { reminder_schedule_days: [], reminder_fee: '' }],
    ]);
    expect(() => parseAdminCommand('update-org', { org: ORG_ID, 'reminder-days': '3-10' })).toThrow(
      expect.objectContaining({
        fieldViolations: [
          {
            field: 'reminder-days',
            description: '--reminder-days must be whole days separated by commas, e.g. 3,10,20.',
          },
        ],
      }),
    );
  });

  it('set-gateway-credentials passes name=value pairs and prints no secret back', async () => {
    const { calls, operations } = recordingOperations();
    const printed = await runAdminCommand(
      'set-gateway-credentials',
      { org: ORG_ID, gateway: 'cardgw_a', credential: ['secret_key=sk_test_1=2', 'webhook_secret=whsec_x'] },
      operations,
    );
    expect(printed).toEqual({
      organization_id: ORG_ID,
      gateway: 'cardgw_a',
      configured: true,
      updated_at: '2026-01-18T09:00:00.000Z',
    });
    expect(calls).toEqual([
      ['setGatewayCredentials', ORG_ID, 'cardgw_a', { secret_key: 'sk_test_1=2', webhook_secret: 'whsec_x' }],
    ]);
    expect(() =>
      parseAdminCommand('set-gateway-credentials', {
        org: ORG_ID,
        gateway: 'cardgw_a',
        credential: ['sk_live_secret'],
      }),
    ).toThrow(
      expect.objectContaining({
        fieldViolations: [{ field: 'credential', description: '--credential must be <name>=<value>.' }],
      }),
    );
  });

  it('add-bank-account and remove-bank-account call their operation with the parsed options', async () => {
    const { calls, operations } = recordingOperations();
    expect(
      await runAdminCommand(
        'add-bank-account',
        { org: ORG_ID, 'reg-number': '1234', 'account-number': '1234567890' },
        operations,
      ),
    ).toEqual(BANK_ACCOUNT_JSON);
    await runAdminCommand(
      'add-bank-account',
      { org: ORG_ID, iban: 'DK50 0040 0440 1162 43', bic: 'DABADKKK', currency: 'EUR' },
      operations,
    );
    expect(await runAdminCommand('remove-bank-account', { org: ORG_ID, 'bank-account': '3' }, operations)).toEqual({
      ...BANK_ACCOUNT_JSON,
      removed_at: '2026-01-17T09:00:00.000Z',
    });
    expect(calls).toEqual([
      [
        'addBankAccount',
        ORG_ID,
        { currency: null, iban: '', bic: '', reg_number: '1234', account_number: '1234567890' },
      ],
      [
        'addBankAccount',
        ORG_ID,
        { currency: 'EUR', iban: 'DK50 0040 0440 1162 43', bic: 'DABADKKK', reg_number: '', account_number: '' },
      ],
      ['removeBankAccount', ORG_ID, 3],
    ]);
  });

  it("create-org --test-clock asks for test mode at the service clock's now; list-orgs shows the clock", async () => {
    const { calls, operations } = recordingOperations();
    await runAdminCommand('create-org', { name: 'Acme', 'test-clock': true }, operations);
    expect(calls).toEqual([['createOrganization', { name: 'Acme', test_clock: {} }]]);

    const inTestMode = { ...organization, test_clock_time: new Date('2026-03-01T00:00:00Z') };
    operations.listOrganizations = async () => [{ organization: inTestMode, bank_accounts: [] }];
    expect(await runAdminCommand('list-orgs', {}, operations)).toEqual([
      { ...ORGANIZATION_JSON, test_clock_time: '2026-03-01T00:00:00.000Z', payment_gateways: [] },
    ]);
  });

  it.each([
    ['2026-01-15T09:00:00Z', '2026-01-15T09:00:00.000Z'],
    ['2026-01-15T09:00:00.5+01:00', '2026-01-15T08:00:00.500Z'],
    ['2026-01-15T09:00', '2026-01-15T09:00:00.000Z'],
    ['2026-01-15', '2026-01-15T00:00:00.000Z'],
    ['2026-01-15T23:30:00-0230', '2026-01-16T02:00:00.000Z'],
  ])('create-org --test-clock-time %s starts the clock at %s (no offset: UTC)', async (given, expected) => {
    const { calls, operations } = recordingOperations();
    await runAdminCommand('create-org', { name: 'Acme', 'test-clock': true, 'test-clock-time': given }, operations);
    // --test-clock-time alone implies --test-clock.
    await runAdminCommand('create-org', { name: 'Acme', 'test-clock-time': given }, operations);
    const settings = { name: 'Acme', test_clock: { time: new Date(expected) } };
    expect(calls).toEqual([
      ['createOrganization', settings],
      ['createOrganization', settings],
    ]);
  });

  it('the token commands and set-rate-limit call their operation with the parsed options', async () => {
    const { calls, operations, token, listing } = recordingOperations();
    // list-orgs names the gateways the organization has credentials for, nothing more of them.
    expect(await runAdminCommand('list-orgs', {}, operations)).toEqual([
      { ...ORGANIZATION_JSON, payment_gateways: ['cardgw_a'] },
    ]);
    expect(await runAdminCommand('create-token', { org: ORG_ID, name: 'CI' }, operations)).toEqual(token);
    expect(await runAdminCommand('list-tokens', { org: ORG_ID }, operations)).toEqual([listing]);
    expect(await runAdminCommand('disable-token', { id: TOKEN_ID }, operations)).toEqual(listing);
    expect(await runAdminCommand('set-rate-limit', { org: ORG_ID, 'per-minute': '120' }, operations)).toEqual(
      ORGANIZATION_JSON,
    );
    expect(calls).toEqual([
      ['listOrganizations'],
      ['createApiToken', ORG_ID, 'CI'],
      ['listApiTokens', ORG_ID],
      ['disableApiToken', TOKEN_ID],
      ['setRateLimit', ORG_ID, 120],
    ]);
  });

  it.each([
    ['create-org', {}, 'name', '--name is required.'],
    ['create-org', { name: '' }, 'name', '--name is required.'],
    ['create-org', { name: 'Acme', 'rate-limit': 'fast' }, 'rate-limit', '--rate-limit must be a whole number.'],
    [
      'create-org',
      { name: 'Acme', 'payment-terms': '1.5' },
      'payment-terms',
      '--payment-terms must be a whole number.',
    ],
    ...['tomorrow', '2026-02-30T00:00:00Z', '2026-01-15T25:00:00Z', '15/01/2026', '2026-01-15T09:00:00+25:00'].map(
      (time): [string, Record<string, string>, string, string] => [
        'create-org',
        { name: 'Acme', 'test-clock-time': time },
        'test-clock-time',
        '--test-clock-time must be an ISO 8601 timestamp.',
      ],
    ),
    ['create-token', {}, 'org', '--org is required.'],
    ['create-token', { org: 'acme' }, 'org', '--org must be a UUID.'],
    ['list-tokens', { org: `${ORG_ID}x` }, 'org', '--org must be a UUID.'],
    ['disable-token', { id: '42' }, 'id', '--id must be a UUID.'],
    ['set-rate-limit', { org: ORG_ID }, 'per-minute', '--per-minute is required.'],
    ['set-rate-limit', { 'per-minute': '5' }, 'org', '--org is required.'],
    [
      'create-org',
      { name: 'Acme', feature: ['kickback'] },
      'feature',
      '--feature must be <name>=on or <name>=off with a name of kickback, self_service; got "kickback".',
    ],
    [
      'update-org',
      { org: ORG_ID, feature: ['kickback=on', 'dunning=on'] },
      'feature',
      '--feature must be <name>=on or <name>=off with a name of kickback, self_service; got "dunning=on".',
    ],
    ['update-org', { org: ORG_ID }, 'non_field_errors', 'Nothing to change: give at least one setting.'],
    ['update-org', { name: 'Acme' }, 'org', '--org is required.'],
    [
      'update-org',
      { org: ORG_ID, currency: 'EUR' },
      'base_currency',
      'The base currency cannot change: MRR and draft line defaults of the organization are in it. Create a new organization instead.',
    ],
    [
      'update-org',
      { org: ORG_ID, 'time-zone': 'UTC' },
      'time_zone',
      "The time zone cannot change: the organization's renewal times and invoice dates were computed in it. Create a new organization instead.",
    ],
    [
      'update-org',
      { org: ORG_ID, 'test-clock': true },
      'test_clock',
      'Test mode is chosen when the organization is created and cannot change.',
    ],
    ['remove-bank-account', { org: ORG_ID }, 'bank-account', '--bank-account is required.'],
    [
      'remove-bank-account',
      { org: ORG_ID, 'bank-account': 'DK50' },
      'bank-account',
      '--bank-account must be a bank account id (a whole number, as list-orgs shows).',
    ],
  ])('%s %j is refused before any operation: %s', (command, options, field, description) => {
    expect(() => parseAdminCommand(command, options)).toThrow(
      expect.objectContaining({ reason: 'VALIDATION_FAILED', fieldViolations: [{ field, description }] }),
    );
  });

  it('an unknown command is refused, naming the known ones', () => {
    expect(() => parseAdminCommand('drop-org', {})).toThrow(
      expect.objectContaining({
        fieldViolations: [
          {
            field: 'command',
            description:
              'Unknown command "drop-org"; one of create-org, update-org, list-orgs, add-bank-account, remove-bank-account, create-token, list-tokens, disable-token, set-gateway-credentials, remove-gateway-credentials, set-rate-limit, import-account-budgets, import-einvoice-field-mappings, set-exchange-rate.',
          },
        ],
      }),
    );
  });
});

describe('import commands', () => {
  async function csvFile(text: string): Promise<string> {
    const folder = await mkdtemp(path.join(tmpdir(), 'admin-import-'));
    const file = path.join(folder, 'data.csv');
    await writeFile(file, text);
    return file;
  }

  it('import-account-budgets reads the CSV (byte order mark, quotes, CRLF) into rows by column', async () => {
    const { calls, operations } = recordingOperations();
    const file = await csvFile(
      '\uFEFFbudget_id,erp_account.name,erp_account.account_number,erp_account.account_type,start_date,end_date,start_amount,calculated_amount\r\n' +
        '2026,"Sales, domestic",1010,profit_loss,2026-01-01,2026-12-31,1000.5,900\r\n',
    );

    expect(await runAdminCommand('import-account-budgets', { org: ORG_ID, file }, operations)).toEqual(IMPORTED);
    expect(calls).toEqual([
      [
        'importAccountBudgets',
        ORG_ID,
        [
          {
            budget_id: '2026',
            'erp_account.name': 'Sales, domestic',
            'erp_account.account_number': '1010',
            'erp_account.account_type': 'profit_loss',
            start_date: '2026-01-01',
            end_date: '2026-12-31',
            start_amount: '1000.5',
            calculated_amount: '900',
          },
        ],
      ],
    ]);
  });

  it('import-einvoice-field-mappings reads its columns, empty cells as empty text', async () => {
    const { calls, operations } = recordingOperations();
    const file = await csvFile(
      'format,target_field,source_type,source_builtin_field,source_custom_field\npeppol_bis,order_reference,builtin,po_number,\n',
    );

    await runAdminCommand('import-einvoice-field-mappings', { org: ORG_ID, file }, operations);

    expect(calls).toEqual([
      [
        'importEinvoiceFieldMappings',
        ORG_ID,
        [
          {
            format: 'peppol_bis',
            target_field: 'order_reference',
            source_type: 'builtin',
            source_builtin_field: 'po_number',
            source_custom_field: '',
          },
        ],
      ],
    ]);
  });

  it.each([
    ['an unknown column', 'format,target_field,source_type,colour\n', 'Unknown column "colour"; the columns are'],
    ['a missing required column', 'format,target_field\n', 'The header lacks the column source_type.'],
    ['a row of another length', 'format,target_field,source_type\npeppol_bis,order_reference\n', 'is not valid CSV'],
  ])('refuses a file with %s before any operation runs', async (_case, text, message) => {
    const { calls } = recordingOperations();
    const file = await csvFile(text);

    expect(() => parseAdminCommand('import-einvoice-field-mappings', { org: ORG_ID, file })).toThrow(
      expect.objectContaining({ fieldViolations: [{ field: 'file', description: expect.stringContaining(message) }] }),
    );
    expect(calls).toEqual([]);
  });

  it('refuses a file that cannot be read, naming it', () => {
    expect(() =>
      parseAdminCommand('import-account-budgets', { org: ORG_ID, file: '/nonexistent/budgets.csv' }),
    ).toThrow(
      expect.objectContaining({
        fieldViolations: [
          { field: 'file', description: expect.stringMatching(/^Cannot read \/nonexistent\/budgets.csv: ENOENT/) },
        ],
      }),
    );
  });
});
