import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { OrganizationRow } from '../db/entities/organization.entity.js';
import { organizationSettingsOf } from '../domain/organization.js';
import { parseTimestamp } from '../domain/test-clock.js';
import type { ApiTokenListing, IssuedToken, NewOrganization } from '../use-cases/organizations.js';

export const ADMIN_USAGE = `usage: npm run admin -- <command> [options]

  create-org --name <name> [--country DK] [--currency DKK] [--time-zone Europe/Copenhagen]
             [--payment-terms 14] [--collection-method invoice] [--rate-limit 60]
             [--test-clock [--test-clock-time <ISO 8601, default now>]]
             [--address <street>] [--zipcode <zip>] [--city <city>] [--vat-number <VAT no.>]
                                  create an organization and its first API token (printed once);
                                  address and VAT number are printed on its invoices;
                                  --test-clock: in test mode, on its own clock (--test-clock-time
                                  alone implies it; a time without an offset is UTC)
  list-orgs                       list organizations (test_clock_time: null unless in test mode)
  create-token --org <id> [--name <name>]
                                  create another API token for an organization (printed once)
  list-tokens --org <id>          list an organization's tokens (prefix only, never the token)
  disable-token --id <token id>   disable a token; it is refused from then on
  set-rate-limit --org <id> --per-minute <n>
                                  requests per minute per API user of that organization

DATABASE_URL selects the database (default: the embedded one of \`npm start\`); DB_SCHEMA the schema.`;

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

export const ADMIN_COMMANDS = [
  'create-org',
  'list-orgs',
  'create-token',
  'list-tokens',
  'disable-token',
  'set-rate-limit',
] as const;

export function isAdminCommand(name: string): name is (typeof ADMIN_COMMANDS)[number] {
  return (ADMIN_COMMANDS as readonly string[]).includes(name);
}

type AdminRun = (operations: AdminOperations) => Promise<unknown>;

/**
 * Checks a command and its options without touching the database, so a typo is reported as such
 * even when the database is down, and returns the command ready to run.
 */
export function parseAdminCommand(command: string, options: Options): AdminRun {
  switch (command) {
    case 'create-org': {
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
      for (const [option, field] of [
        ['address', 'address'],
        ['zipcode', 'zipcode'],
        ['city', 'city'],
        ['vat-number', 'vat_number'],
      ] as const) {
        const value = text(options, option);
        if (value !== undefined) settings[field] = value;
      }
      const clock = testClock(options);
      if (clock !== undefined) settings.test_clock = clock;
      return async (operations) => {
        const { organization, token } = await operations.createOrganization(settings);
        return { organization: organizationJson(organization), token };
      };
    }
    case 'list-orgs':
      return async (operations) => (await operations.listOrganizations()).map(organizationJson);
    case 'create-token': {
      const organizationId = uuid(options, 'org');
      const name = text(options, 'name');
      return (operations) => operations.createApiToken(organizationId, name);
    }
    case 'list-tokens': {
      const organizationId = uuid(options, 'org');
      return (operations) => operations.listApiTokens(organizationId);
    }
    case 'disable-token': {
      const apiUserId = uuid(options, 'id');
      return (operations) => operations.disableApiToken(apiUserId);
    }
    case 'set-rate-limit': {
      const organizationId = uuid(options, 'org');
      const perMinute = integer(options, 'per-minute');
      if (perMinute === undefined) throw AppError.invalidField('per-minute', '--per-minute is required.');
      return async (operations) => organizationJson(await operations.setRateLimit(organizationId, perMinute));
    }
    default:
      throw AppError.invalidField('command', `Unknown command "${command}"; one of ${ADMIN_COMMANDS.join(', ')}.`);
  }
}

/** Parses one command's options and runs it; the result is printed as JSON by the caller. */
export async function runAdminCommand(
  command: string,
  options: Options,
  operations: AdminOperations,
): Promise<unknown> {
  return parseAdminCommand(command, options)(operations);
}
