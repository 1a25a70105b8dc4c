import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { OrganizationRow } from '../db/entities/organization.entity.js';
import { organizationSettingsOf } from '../domain/organization.js';
import { parseTimestamp } from '../domain/test-clock.js';
import type { ApiTokenListing, IssuedToken, NewOrganization } from '../use-cases/organizations.js';

export interface AdminOperations {
  createOrganization(settings: NewOrganization): Promise<{ organization: OrganizationRow; token: IssuedToken }>;
  listOrganizations(): Promise<OrganizationRow[]>;
  createApiToken(organizationId: string, name?: string): Promise<IssuedToken>;
  listApiTokens(organizationId: string): Promise<ApiTokenListing[]>;
  disableApiToken(apiUserId: string): Promise<ApiTokenListing>;
  setRateLimit(organizationId: string, perMinute: number): Promise<OrganizationRow>;
}

type Options = Record<string, string | boolean | undefined>;

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

export function organizationJson(organization: OrganizationRow) {
  return {
    ...organizationSettingsOf(organization),
    created_at: organization.created_at.toISOString(),
    test_clock_time: organization.test_clock_time ? organization.test_clock_time.toISOString() : null,
  };
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

/** create-org options that map one to one onto an organization setting. */
const SELLER_DETAILS = [
  ['address', 'address'],
  ['zipcode', 'zipcode'],
  ['city', 'city'],
  ['vat-number', 'vat_number'],
] as const;

const COMMANDS = {
  'create-org': {
    options: {
      name: { type: 'string', value: 'name', required: true },
      country: { type: 'string', value: 'DK' },
      currency: { type: 'string', value: 'DKK' },
      'time-zone': { type: 'string', value: 'Europe/Copenhagen' },
      'payment-terms': { type: 'string', value: '14' },
      'collection-method': { type: 'string', value: 'invoice' },
      'rate-limit': { type: 'string', value: '60' },
      address: { type: 'string', value: 'street' },
      zipcode: { type: 'string', value: 'zip' },
      city: { type: 'string', value: 'city' },
      'vat-number': { type: 'string', value: 'VAT no.' },
      'test-clock': { type: 'boolean' },
      'test-clock-time': { type: 'string', value: 'ISO 8601, default now' },
    },
    summary:
      'create an organization and its first API token (printed once); address and VAT number are ' +
      'printed on its invoices; --test-clock: in test mode, on its own clock (--test-clock-time alone ' +
      'implies it; a time without an offset is UTC)',
    prepare(options) {
      const settings: NewOrganization = { name: required(options, 'name') };
      const country = text(options, 'country');
      const currency = text(options, 'currency');
      const timeZone = text(options, 'time-zone');
      const paymentTerms = integer(options, 'payment-terms');
      const collectionMethod = text(options, 'collection-method');
      const rateLimit = integer(options, 'rate-limit');
      if (country !== undefined) settings.country = country;
      if (currency !== undefined) settings.base_currency = currency;
      if (timeZone !== undefined) settings.time_zone = timeZone;
      if (paymentTerms !== undefined) settings.default_payment_terms = paymentTerms;
      if (collectionMethod !== undefined) settings.default_collection_method = collectionMethod;
      if (rateLimit !== undefined) settings.rate_limit_per_minute = rateLimit;
      for (const [option, field] of SELLER_DETAILS) {
        const value = text(options, option);
        if (value !== undefined) settings[field] = value;
      }
      const clock = testClock(options);
      if (clock !== undefined) settings.test_clock = clock;
      return async (operations) => {
        const { organization, token } = await operations.createOrganization(settings);
        return { organization: organizationJson(organization), token };
      };
    },
  },
  'list-orgs': {
    options: {},
    summary: 'list organizations (test_clock_time: null unless in test mode)',
    prepare: () => async (operations) => (await operations.listOrganizations()).map(organizationJson),
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
  'set-rate-limit': {
    options: { org: ORG, 'per-minute': { type: 'string', value: 'n', required: true } },
    summary: 'requests per minute per API user of that organization',
    prepare(options) {
      const organizationId = uuid(options, 'org');
      const perMinute = integer(options, 'per-minute');
      if (perMinute === undefined) throw AppError.invalidField('per-minute', '--per-minute is required.');
      return async (operations) => organizationJson(await operations.setRateLimit(organizationId, perMinute));
    },
  },
} satisfies Record<string, CommandSpec>;

export type AdminCommand = keyof typeof COMMANDS;

export const ADMIN_COMMANDS = Object.keys(COMMANDS) as AdminCommand[];

export function isAdminCommand(name: string): name is AdminCommand {
  return Object.hasOwn(COMMANDS, name);
}

/** The options a command takes, in the form `node:util` parseArgs wants. */
export function commandOptions(command: AdminCommand): Record<string, { type: 'string' | 'boolean' }> {
  const spec: CommandSpec = COMMANDS[command];
  return Object.fromEntries(Object.entries(spec.options).map(([name, option]) => [name, { type: option.type }]));
}

/** The command and its options, one part each (`[--country <DK>]`). */
function synopsis(command: AdminCommand): string[] {
  const spec: CommandSpec = COMMANDS[command];
  const parts = Object.entries(spec.options).map(([name, option]) => {
    const shown = option.type === 'boolean' ? `--${name}` : `--${name} <${option.value}>`;
    return option.required ? shown : `[${shown}]`;
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
    `  ${wrap(synopsis(command), 100, '      ')}`,
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
