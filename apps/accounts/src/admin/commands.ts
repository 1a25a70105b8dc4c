import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import { isOrganizationFeature, ORGANIZATION_FEATURES } from '@billing/reference-data';
import type { BankAccountRow } from '../db/entities/bank-account.entity.js';
import type { OrganizationRow } from '../db/entities/organization.entity.js';
import { ACCOUNT_BUDGET_COLUMNS, ACCOUNT_BUDGET_REQUIRED_COLUMNS } from '../domain/account-budget.js';
import type { BankAccountDetails } from '../domain/bank-account.js';
import { EINVOICE_FIELD_MAPPING_COLUMNS } from '../domain/einvoice-field-mapping.js';
import type { ExchangeRate } from '../domain/exchange-rate.js';
import type { ImportRow } from '../domain/import-rows.js';
import {
  FIXED_SETTINGS,
  featureFlags,
  ORGANIZATION_DEFAULTS,
  type OrganizationChanges,
  organizationSettingsOf,
  switchFeatures,
} from '../domain/organization.js';
import { parseTimestamp } from '../domain/test-clock.js';
import type { GatewayCredentialListing } from '../use-cases/gateway-credentials.js';
import type { ImportCounts } from '../use-cases/imported-data.js';
import type { ApiTokenListing, IssuedToken, NewOrganization, OrganizationRecord } from '../use-cases/organizations.js';
import { readCsvRows } from './csv-rows.js';

export interface AdminOperations {
  createOrganization(settings: NewOrganization): Promise<{ organization: OrganizationRow; token: IssuedToken }>;
  listOrganizations(): Promise<OrganizationRecord[]>;
  updateOrganization(organizationId: string, changes: OrganizationChanges): Promise<OrganizationRecord>;
  addBankAccount(organizationId: string, details: BankAccountDetails): Promise<BankAccountRow>;
  removeBankAccount(organizationId: string, bankAccountId: number): Promise<BankAccountRow>;
  createApiToken(organizationId: string, name?: string): Promise<IssuedToken>;
  listApiTokens(organizationId: string): Promise<ApiTokenListing[]>;
  disableApiToken(apiUserId: string): Promise<ApiTokenListing>;
  setRateLimit(organizationId: string, perMinute: number): Promise<OrganizationRecord>;
  importAccountBudgets(organizationId: string, rows: readonly ImportRow[]): Promise<ImportCounts>;
  importEinvoiceFieldMappings(organizationId: string, rows: readonly ImportRow[]): Promise<ImportCounts>;
  /** Seals the credentials with the operator's key (GATEWAY_CREDENTIALS_KEY) and stores them. */
  setGatewayCredentials(
    organizationId: string,
    gateway: string,
    credentials: Record<string, string>,
  ): Promise<GatewayCredentialListing>;
  removeGatewayCredentials(organizationId: string, gateway: string): Promise<GatewayCredentialListing>;
  setExchangeRate(organizationId: string, rate: ExchangeRate): Promise<OrganizationRecord>;
}

type Options = Record<string, string | boolean | string[] | undefined>;

function text(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

function required(options: Options, name: string): string {
  const value = text(options, name);
  if (!value) throw AppError.invalidField(name, `--${name} is required.`);
  return value;
}

function uuid(options: Options, name: string): string {
  const value = required(options, name);
  if (!isUuid(value)) throw AppError.invalidField(name, `--${name} must be a UUID.`);
  return value;
}

function integer(options: Options, name: string): number | undefined {
  const value = text(options, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw AppError.invalidField(name, `--${name} must be a whole number.`);
  return Number(value);
}

export function bankAccountJson(account: BankAccountRow) {
  return {
    id: account.id,
    currency: account.currency ?? null,
    iban: account.iban,
    bic: account.bic,
    reg_number: account.reg_number,
    account_number: account.account_number,
    created_at: account.created_at.toISOString(),
  };
}

/** An organization as every command prints it: settings, feature flags, bank accounts, clock. */
export function organizationJson(organization: OrganizationRow, bankAccounts: readonly BankAccountRow[] = []) {
  return {
    ...organizationSettingsOf(organization),
    features: featureFlags(organization.features),
    bank_accounts: bankAccounts.map(bankAccountJson),
    created_at: organization.created_at.toISOString(),
    test_clock_time: organization.test_clock_time ? organization.test_clock_time.toISOString() : null,
    exchange_rates: organization.exchange_rates ?? [],
  };
}

const recordJson = (record: OrganizationRecord) => organizationJson(record.organization, record.bank_accounts);

/**
 * `--feature kickback=on --feature self_service=off`: each flag to switch; undefined when none is
 * given.
 */
function featureSwitches(options: Options): Record<string, boolean> | undefined {
  const given = options.feature;
  if (given === undefined) return undefined;
  const switches: Record<string, boolean> = {};
  for (const value of Array.isArray(given) ? given : [String(given)]) {
    const match = /^([a-z_]+)=(on|off)$/.exec(value);
    if (!match || !isOrganizationFeature(match[1]!)) {
      throw AppError.invalidField(
        'feature',
        `--feature must be <name>=on or <name>=off with a name of ${ORGANIZATION_FEATURES.join(', ')}; got "${value}".`,
      );
    }
    switches[match[1]!] = match[2] === 'on';
  }
  return switches;
}

/** `--test-clock` and/or `--test-clock-time`: test mode, now or at the given time; neither: none. */
function testClock(options: Options): NewOrganization['test_clock'] {
  const time = text(options, 'test-clock-time');
  if (time !== undefined) {
    const parsed = parseTimestamp(time);
    if (!parsed) {
      throw AppError.invalidField('test-clock-time', '--test-clock-time must be an ISO 8601 timestamp.');
    }
    return { time: parsed };
  }
  return options['test-clock'] === true ? {} : undefined;
}

/** One command-line option: its parseArgs type and, for a value, the placeholder shown in the usage. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Placeholder or example in the usage: `--country <DK>`; absent for flags. */
  value?: string;
  required?: boolean;
  /** May be given more than once (parseArgs collects the values in a list). */
  multiple?: boolean;
  /** Parsed (to refuse it by name with a reason) but not shown in the usage. */
  hidden?: boolean;
}

type AdminRun = (operations: AdminOperations) => Promise<unknown>;

/**
 * A command: the options it takes (the one list both the parser and the usage are made from, so a
 * documented option is always a parsed one) and how its checked options become a run.
 */
interface CommandSpec {
  options: Record<string, OptionSpec>;
  /** What the command does, for the usage. */
  summary: string;
  /** Checks the options without touching the database and returns the command ready to run. */
  prepare(options: Options): AdminRun;
}

const ORG: OptionSpec = { type: 'string', value: 'organization id', required: true };

/** Options that map one to one onto a text setting of the organization. */
const TEXT_SETTINGS = [
  ['name', 'name'],
  ['country', 'country'],
  ['collection-method', 'default_collection_method'],
  ['address', 'address'],
  ['zipcode', 'zipcode'],
  ['city', 'city'],
  ['vat-number', 'vat_number'],
  ['email', 'email'],
] as const;

/** Options that map one to one onto a whole-number setting. */
const INTEGER_SETTINGS = [
  ['payment-terms', 'default_payment_terms'],
  ['rate-limit', 'rate_limit_per_minute'],
] as const;

/** `--dunning-days 1,3,7`: the days after the first card payment attempt a decline is retried ('' or none: never). */
function dunningDays(options: Options): number[] | undefined {
  const value = text(options, 'dunning-days');
  if (value === undefined) return undefined;
  if (value.trim() === '' || value.trim() === 'none') return [];
  if (!/^\s*\d+(\s*,\s*\d+)*\s*$/.test(value)) {
    throw AppError.invalidField('dunning-days', '--dunning-days must be whole days separated by commas, e.g. 1,3,7.');
  }
  return value.split(',').map((day) => Number(day.trim()));
}

/** `--reminder-days 3,10,20`: the days after the due date an open invoice is reminded of ('' or none: never). */
function reminderDays(options: Options): number[] | undefined {
  const value = text(options, 'reminder-days');
  if (value === undefined) return undefined;
  if (value.trim() === '' || value.trim() === 'none') return [];
  if (!/^\s*\d+(\s*,\s*\d+)*\s*$/.test(value)) {
    throw AppError.invalidField(
      'reminder-days',
      '--reminder-days must be whole days separated by commas, e.g. 3,10,20.',
    );
  }
  return value.split(',').map((day) => Number(day.trim()));
}

/** `--reminder-fee 100.00`: the fee each reminder adds as a draft line ('' or none: no fee). */
function reminderFee(options: Options): string | undefined {
  const value = text(options, 'reminder-fee');
  if (value === undefined) return undefined;
  return value.trim() === 'none' ? '' : value.trim();
}

/** `--credential secret_key=sk_... --credential webhook_secret=whsec_...`: name to value. */
function credentialPairs(options: Options): Record<string, string> {
  const given = options.credential;
  const pairs: Record<string, string> = {};
  for (const value of Array.isArray(given) ? given : given === undefined ? [] : [String(given)]) {
    const match = /^([a-z_]+)=(.+)$/s.exec(value);
    // The value is never echoed: it is a secret.
    if (!match) throw AppError.invalidField('credential', '--credential must be <name>=<value>.');
    pairs[match[1]!] = match[2]!;
  }
  return pairs;
}

/** The settings both create-org and update-org take, as given on the command line. */
function givenSettings(options: Options): Omit<OrganizationChanges, 'features'> {
  const settings: Omit<OrganizationChanges, 'features'> = {};
  const dunning = dunningDays(options);
  if (dunning !== undefined) settings.dunning_schedule_days = dunning;
  const reminders = reminderDays(options);
  if (reminders !== undefined) settings.reminder_schedule_days = reminders;
  const fee = reminderFee(options);
  if (fee !== undefined) settings.reminder_fee = fee;
  for (const [option, field] of TEXT_SETTINGS) {
    const value = text(options, option);
    if (value !== undefined) settings[field] = value;
  }
  for (const [option, field] of INTEGER_SETTINGS) {
    const value = integer(options, option);
    if (value !== undefined) settings[field] = value;
  }
  return settings;
}

/** The options of the settings create-org and update-org share. */
const SETTING_OPTIONS = {
  country: { type: 'string', value: 'DK' },
  'payment-terms': { type: 'string', value: '14' },
  'collection-method': { type: 'string', value: 'invoice' },
  'rate-limit': { type: 'string', value: '60' },
  address: { type: 'string', value: 'street' },
  zipcode: { type: 'string', value: 'zip' },
  city: { type: 'string', value: 'city' },
  'vat-number': { type: 'string', value: 'VAT no.' },
  email: { type: 'string', value: 'invoices@example.com' },
  'dunning-days': { type: 'string', value: '1,3,7' },
  'reminder-days': { type: 'string', value: '3,10,20' },
  'reminder-fee': { type: 'string', value: '100.00|none' },
  feature: { type: 'string', value: 'kickback|self_service=on|off', multiple: true },
} satisfies Record<string, OptionSpec>;

function settingOptionsBut(left: keyof typeof SETTING_OPTIONS): Partial<typeof SETTING_OPTIONS> {
  const { [left]: _left, ...rest } = SETTING_OPTIONS;
  return rest;
}

/** update-org refuses these by name (FIXED_SETTINGS says why) rather than as unknown options. */
const FIXED_OPTIONS = [
  ['currency', 'base_currency', 'string'],
  ['time-zone', 'time_zone', 'string'],
  ['test-clock', 'test_clock', 'boolean'],
  ['test-clock-time', 'test_clock', 'string'],
] as const;

/** A bank account id as the command line gives it: a positive whole number. */
function bankAccountId(options: Options, name: string): number {
  const value = required(options, name);
  if (!/^\d{1,9}$/.test(value) || Number(value) === 0) {
    throw AppError.invalidField(name, `--${name} must be a bank account id (a whole number, as list-orgs shows).`);
  }
  return Number(value);
}

const COMMANDS = {
  'create-org': {
    options: {
      name: { type: 'string', value: 'name', required: true },
      country: SETTING_OPTIONS.country,
      currency: { type: 'string', value: 'DKK' },
      'time-zone': { type: 'string', value: 'Europe/Copenhagen' },
      ...settingOptionsBut('country'),
      'test-clock': { type: 'boolean' },
      'test-clock-time': { type: 'string', value: 'ISO 8601, default now' },
    },
    summary:
      'create an organization and its first API token (printed once); address, VAT number and e-mail ' +
      'are printed on its invoices, the e-mail is the Reply-To of invoice e-mails; features: self_service ' +
      'on and kickback off unless --feature says otherwise; --test-clock: in test mode, on its own clock ' +
      '(--test-clock-time alone implies it; a time without an offset is UTC)',
    prepare(options) {
      const settings: NewOrganization = { ...givenSettings(options), name: required(options, 'name') };
      const currency = text(options, 'currency');
      const timeZone = text(options, 'time-zone');
      if (currency !== undefined) settings.base_currency = currency;
      if (timeZone !== undefined) settings.time_zone = timeZone;
      const switches = featureSwitches(options);
      if (switches !== undefined) settings.features = switchFeatures(ORGANIZATION_DEFAULTS.features, switches);
      const clock = testClock(options);
      if (clock !== undefined) settings.test_clock = clock;
      return async (operations) => {
        const { organization, token } = await operations.createOrganization(settings);
        return { organization: organizationJson(organization), token };
      };
    },
  },
  'update-org': {
    options: {
      org: ORG,
      name: { type: 'string', value: 'name' },
      ...SETTING_OPTIONS,
      ...Object.fromEntries(FIXED_OPTIONS.map(([option, , type]) => [option, { type, hidden: true }])),
    },
    summary:
      'change settings of an organization (those given; an empty value clears a text); --feature switches ' +
      'one flag, leaving the others; the base currency, time zone and test mode are fixed at creation',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      for (const [option, setting] of FIXED_OPTIONS) {
        if (options[option] !== undefined) throw AppError.invalidField(setting, FIXED_SETTINGS[setting]);
      }
      const changes: OrganizationChanges = givenSettings(options);
      const switches = featureSwitches(options);
      if (switches !== undefined) changes.features = switches;
      if (Object.keys(changes).length === 0) {
        throw AppError.invalidField('non_field_errors', 'Nothing to change: give at least one setting.');
      }
      return async (operations) => recordJson(await operations.updateOrganization(organizationId, changes));
    },
  },
  'list-orgs': {
    options: {},
    summary:
      'list organizations with their settings, feature flags, bank accounts and the payment gateways they have credentials for (names only; test_clock_time: null unless in test mode)',
    prepare: () => async (operations) =>
      (await operations.listOrganizations()).map((record) => ({
        ...recordJson(record),
        payment_gateways: record.payment_gateways ?? [],
      })),
  },
  'add-bank-account': {
    options: {
      org: ORG,
      iban: { type: 'string', value: 'IBAN' },
      bic: { type: 'string', value: 'BIC' },
      'reg-number': { type: 'string', value: '4 digits' },
      'account-number': { type: 'string', value: 'up to 10 digits' },
      currency: { type: 'string', value: 'DKK, default every currency' },
    },
    summary:
      'add a bank account invoices are paid to: --iban with --bic, or a Danish --reg-number with ' +
      '--account-number; invoices in --currency are paid to it (without: every currency that has no ' +
      'account of its own); prints it with its id (pay_to_bank_account on invoices)',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const details: BankAccountDetails = {
        currency: text(options, 'currency') ?? null,
        iban: text(options, 'iban') ?? '',
        bic: text(options, 'bic') ?? '',
        reg_number: text(options, 'reg-number') ?? '',
        account_number: text(options, 'account-number') ?? '',
      };
      return async (operations) => bankAccountJson(await operations.addBankAccount(organizationId, details));
    },
  },
  'remove-bank-account': {
    options: { org: ORG, 'bank-account': { type: 'string', value: 'id', required: true } },
    summary: 'new invoices stop naming that bank account; invoices already made keep it',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const id = bankAccountId(options, 'bank-account');
      return async (operations) => {
        const account = await operations.removeBankAccount(organizationId, id);
        return { ...bankAccountJson(account), removed_at: account.removed_at?.toISOString() ?? null };
      };
    },
  },
  'create-token': {
    options: { org: ORG, name: { type: 'string', value: 'name' } },
    summary: 'create another API token for an organization (printed once)',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const name = text(options, 'name');
      return (operations) => operations.createApiToken(organizationId, name);
    },
  },
  'list-tokens': {
    options: { org: ORG },
    summary: "list an organization's tokens (prefix only, never the token)",
    prepare(options) {
      const organizationId = uuid(options, 'org');
      return (operations) => operations.listApiTokens(organizationId);
    },
  },
  'disable-token': {
    options: { id: { type: 'string', value: 'token id', required: true } },
    summary: 'disable a token; it is refused from then on',
    prepare(options) {
      const apiUserId = uuid(options, 'id');
      return (operations) => operations.disableApiToken(apiUserId);
    },
  },
  'set-gateway-credentials': {
    options: {
      org: ORG,
      gateway: { type: 'string', value: 'cardgw_a', required: true },
      credential: { type: 'string', value: 'name=value', required: true, multiple: true },
    },
    summary:
      "store an organization's credentials for a payment gateway (cardgw_a, cardgw_a_new: " +
      'secret_key=sk_... and webhook_secret=whsec_...), replacing earlier ones; sealed with ' +
      'GATEWAY_CREDENTIALS_KEY from the environment (32 bytes, hex or base64; the payments service ' +
      'needs the same key); never printed back',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const gateway = required(options, 'gateway');
      const credentials = credentialPairs(options);
      return (operations) => operations.setGatewayCredentials(organizationId, gateway, credentials);
    },
  },
  'remove-gateway-credentials': {
    options: { org: ORG, gateway: { type: 'string', value: 'cardgw_a', required: true } },
    summary: 'forget the credentials of a gateway: new cards through it are refused from then on',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const gateway = required(options, 'gateway');
      return (operations) => operations.removeGatewayCredentials(organizationId, gateway);
    },
  },
  'set-rate-limit': {
    options: { org: ORG, 'per-minute': { type: 'string', value: 'n', required: true } },
    summary: 'requests per minute per API user of that organization',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const perMinute = integer(options, 'per-minute');
      if (perMinute === undefined) throw AppError.invalidField('per-minute', '--per-minute is required.');
      return async (operations) => recordJson(await operations.setRateLimit(organizationId, perMinute));
    },
  },
  'import-account-budgets': {
    options: { org: ORG, file: { type: 'string', value: 'budgets.csv', required: true } },
    summary:
      "make the CSV file's rows the organization's ERP account budgets (columns: " +
      `${ACCOUNT_BUDGET_COLUMNS.join(', ')}; ` +
      'docs/api.md "Imported data"): a row with the same budget_id, account number and start date keeps its ' +
      'id, rows not in the file go; all or nothing; prints the budgets with their ids',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const rows = readCsvRows(required(options, 'file'), ACCOUNT_BUDGET_COLUMNS, ACCOUNT_BUDGET_REQUIRED_COLUMNS);
      return (operations) => operations.importAccountBudgets(organizationId, rows);
    },
  },
  'import-einvoice-field-mappings': {
    options: { org: ORG, file: { type: 'string', value: 'mappings.csv', required: true } },
    summary:
      "make the CSV file's rows the organization's e-invoice field mappings (columns: " +
      `${EINVOICE_FIELD_MAPPING_COLUMNS.join(', ')}): one per format and target_field, which keeps its uuid; ` +
      'mappings not in the file go; all or nothing',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const rows = readCsvRows(required(options, 'file'), EINVOICE_FIELD_MAPPING_COLUMNS, [
        'format',
        'target_field',
        'source_type',
      ]);
      return (operations) => operations.importEinvoiceFieldMappings(organizationId, rows);
    },
  },
  'set-exchange-rate': {
    options: {
      org: ORG,
      currency: { type: 'string', value: 'EUR', required: true },
      rate: { type: 'string', value: 'base currency per unit, e.g. 7.46', required: true },
      from: { type: 'string', value: 'YYYY-MM-DD', required: true },
    },
    summary:
      'the exchange rate of a currency to the base currency from a day on (the organization’s time zone); ' +
      'MRR in that currency takes it at each subscription’s next renewal (a currency_exchange activity)',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const rate: ExchangeRate = {
        currency: required(options, 'currency'),
        rate: required(options, 'rate'),
        valid_from: required(options, 'from'),
      };
      return async (operations) => recordJson(await operations.setExchangeRate(organizationId, rate));
    },
  },
} satisfies Record<string, CommandSpec>;

export type AdminCommand = keyof typeof COMMANDS;

export const ADMIN_COMMANDS = Object.keys(COMMANDS) as AdminCommand[];

export function isAdminCommand(name: string): name is AdminCommand {
  return Object.hasOwn(COMMANDS, name);
}

/** The options a command takes, in the form `node:util` parseArgs wants. */
export function commandOptions(
  command: AdminCommand,
): Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> {
  const spec: CommandSpec = COMMANDS[command];
  return Object.fromEntries(
    Object.entries(spec.options).map(([name, option]) => [
      name,
      option.multiple ? { type: option.type, multiple: true } : { type: option.type },
    ]),
  );
}

/** The command and its options, one part each (`[--country <DK>]`). */
function synopsis(command: AdminCommand): string[] {
  const spec: CommandSpec = COMMANDS[command];
  const parts = Object.entries(spec.options)
    .filter(([, option]) => !option.hidden)
    .map(([name, option]) => {
      const shown = option.type === 'boolean' ? `--${name}` : `--${name} <${option.value}>`;
      if (option.required) return shown;
      return option.multiple ? `[${shown} ...]` : `[${shown}]`;
    });
  return [command, ...parts];
}

/** Joins `words` into lines of at most `width` columns, each line after the first indented by `indent`. */
function wrap(words: string[], width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

export const ADMIN_USAGE = [
  'usage: npm run -s admin -- <command> [options]',
  '',
  ...ADMIN_COMMANDS.flatMap((command) => [
    `  ${wrap(synopsis(command), 100, '        ')}`,
    `      ${wrap(COMMANDS[command].summary.split(' '), 100, '      ')}`,
  ]),
  '',
  'DATABASE_URL selects the database (default: the embedded one of `npm start`); DB_SCHEMA the schema.',
].join('\n');

/**
 * Checks a command and its options without touching the database, so a typo is reported as such
 * even when the database is down, and returns the command ready to run.
 */
export function parseAdminCommand(command: string, options: Options): AdminRun {
  if (!isAdminCommand(command)) {
    throw AppError.invalidField('command', `Unknown command "${command}"; one of ${ADMIN_COMMANDS.join(', ')}.`);
  }
  const spec: CommandSpec = COMMANDS[command];
  return spec.prepare(options);
}

/** Parses one command's options and runs it; the result is printed as JSON by the caller. */
export async function runAdminCommand(
  command: string,
  options: Options,
  operations: AdminOperations,
): Promise<unknown> {
  return parseAdminCommand(command, options)(operations);
}
