import { randomUUID } from 'node:crypto';
import type { Clock } from '@billing/clock';
import { inTransaction, recordAudit } from '@billing/db';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { ApiUserEntity, type ApiUserRow } from '../db/entities/api-user.entity.js';
import { BankAccountEntity, type BankAccountRow } from '../db/entities/bank-account.entity.js';
import { GatewayCredentialEntity } from '../db/entities/gateway-credential.entity.js';
import { OrganizationEntity, type OrganizationRow } from '../db/entities/organization.entity.js';
import { hashApiToken, newApiToken, tokenPrefix } from '../domain/api-token.js';
import { type BankAccountDetails, normalizeBankAccount, validateBankAccount } from '../domain/bank-account.js';
import { type ExchangeRate, validateExchangeRate, withExchangeRate } from '../domain/exchange-rate.js';
import {
  ORGANIZATION_DEFAULTS,
  type OrganizationChanges,
  type OrganizationSettings,
  updateOrganizationSettings,
  validateOrganization,
  validateRateLimit,
} from '../domain/organization.js';
import { publishOrganizationEvent } from '../events/organization-events.js';
import { requireOrganization } from './change-transaction.js';
import type { IdentityDeps } from './deps.js';

/** Every API user has all permissions by default (spec: "The API USER has all permissions"). */
export const ALL_PERMISSIONS = ['billing_read', 'billing_write'];

export interface IssuedToken {
  id: string;
  name: string;
  token: string;
  organization_id: string;
}

export interface ApiTokenListing {
  id: string;
  name: string;
  token_prefix: string;
  created_at: string;
  disabled_at: string | null;
}

const ADMIN = { clientSystem: 'admin-cli', apiUserId: null, externalUser: null, requestId: null };

/** An audit row of an admin command (client system `admin-cli`, no API user). */
export function audit(
  em: EntityManager,
  organizationId: string,
  now: Date,
  action: string,
  objectType: string,
  objectId: string,
  details = {},
) {
  recordAudit(em, { ...ADMIN, organizationId, action, objectType, objectId, occurredAt: now, details });
}

function issueToken(em: EntityManager, clock: Clock, organizationId: string, name: string): IssuedToken {
  const token = newApiToken();
  const id = randomUUID();
  em.create(ApiUserEntity, {
    id,
    organization_id: organizationId,
    name,
    token_hash: hashApiToken(token),
    token_prefix: tokenPrefix(token),
    permissions: ALL_PERMISSIONS,
    created_at: clock.now(),
    disabled_at: null,
  });
  return { id, name, token, organization_id: organizationId };
}

export type NewOrganization = Partial<OrganizationSettings> & {
  name: string;
  /** Test mode: the organization runs on its own clock, starting at `time` (default: now). */
  test_clock?: { time?: Date };
};

/** Creates an organization and its first API user; the token is returned once and never stored. */
export async function createOrganization(
  deps: IdentityDeps,
  settings: NewOrganization,
  apiUserName = 'API USER',
): Promise<{ organization: OrganizationRow; token: IssuedToken }> {
  const { test_clock: testClock, ...given } = settings;
  const complete: OrganizationSettings = { ...ORGANIZATION_DEFAULTS, ...given };
  const violations = validateOrganization(complete);
  if (testClock?.time && Number.isNaN(testClock.time.getTime())) {
    violations.push({ field: 'test_clock_time', description: 'Enter a valid date/time.' });
  }
  if (violations.length > 0) throw AppError.invalid(violations);
  return inTransaction(deps.orm, async (em) => {
    const now = deps.clock.now();
    const testClockTime = testClock ? (testClock.time ?? now) : null;
    const organization = em.create(OrganizationEntity, {
      id: randomUUID(),
      ...complete,
      created_at: now,
      test_clock_time: testClockTime,
      exchange_rates: [],
    });
    const token = issueToken(em, deps.clock, organization.id, apiUserName);
    audit(
      em,
      organization.id,
      now,
      'organization.create',
      'organization',
      organization.id,
      testClockTime ? { test_clock_time: testClockTime.toISOString() } : {},
    );
    publishOrganizationEvent(em, 'organization.created', organization, now);
    await em.flush();
    return { organization, token };
  });
}

export async function createApiToken(
  deps: IdentityDeps,
  organizationId: string,
  name = 'API USER',
): Promise<IssuedToken> {
  return inTransaction(deps.orm, async (em) => {
    await requireOrganizationRow(em, organizationId);
    const token = issueToken(em, deps.clock, organizationId, name);
    audit(em, organizationId, deps.clock.now(), 'api_token.create', 'api_user', token.id);
    await em.flush();
    return token;
  });
}

export async function listApiTokens(deps: IdentityDeps, organizationId: string): Promise<ApiTokenListing[]> {
  const em = deps.orm.em.fork();
  await requireOrganizationRow(em, organizationId);
  const users = await em.find(
    ApiUserEntity,
    { organization_id: organizationId },
    { orderBy: { created_at: 'asc', id: 'asc' } },
  );
  return users.map((user: ApiUserRow) => ({
    id: user.id,
    name: user.name,
    token_prefix: user.token_prefix,
    created_at: user.created_at.toISOString(),
    disabled_at: user.disabled_at ? user.disabled_at.toISOString() : null,
  }));
}

export async function disableApiToken(deps: IdentityDeps, apiUserId: string): Promise<ApiTokenListing> {
  return inTransaction(deps.orm, async (em) => {
    const user = await em.findOne(ApiUserEntity, { id: apiUserId });
    if (!user) throw AppError.notFound(`No API token with id ${apiUserId}.`);
    if (!user.disabled_at) user.disabled_at = deps.clock.now();
    audit(em, user.organization_id, deps.clock.now(), 'api_token.disable', 'api_user', user.id);
    await em.flush();
    return {
      id: user.id,
      name: user.name,
      token_prefix: user.token_prefix,
      created_at: user.created_at.toISOString(),
      disabled_at: user.disabled_at!.toISOString(),
    };
  });
}

export async function setRateLimit(
  deps: IdentityDeps,
  organizationId: string,
  perMinute: number,
): Promise<OrganizationRecord> {
  const violations = validateRateLimit(perMinute);
  if (violations.length > 0) throw AppError.invalid(violations);
  return inTransaction(deps.orm, async (em) => {
    const organization = await requireOrganizationRow(em, organizationId);
    organization.rate_limit_per_minute = perMinute;
    audit(em, organizationId, deps.clock.now(), 'organization.set_rate_limit', 'organization', organizationId, {
      perMinute,
    });
    await em.flush();
    return recordOf(em, organization);
  });
}

/** An organization with the bank accounts it is paid to (oldest first; removed ones left out). */
export interface OrganizationRecord {
  organization: OrganizationRow;
  bank_accounts: BankAccountRow[];
  /** The payment gateways it has credentials for, by name (list-orgs; the credentials never leave). */
  payment_gateways?: string[];
}

async function bankAccountsOf(em: EntityManager, organizationIds: string[]): Promise<BankAccountRow[]> {
  if (organizationIds.length === 0) return [];
  return em.find(
    BankAccountEntity,
    { organization_id: { $in: organizationIds }, removed_at: null },
    { orderBy: { id: 'asc' } },
  );
}

async function recordOf(em: EntityManager, organization: OrganizationRow): Promise<OrganizationRecord> {
  return { organization, bank_accounts: await bankAccountsOf(em, [organization.id]) };
}

export async function listOrganizations(deps: IdentityDeps): Promise<OrganizationRecord[]> {
  const em = deps.orm.em.fork();
  const organizations = await em.find(OrganizationEntity, {}, { orderBy: { created_at: 'asc', id: 'asc' } });
  const bankAccounts = await bankAccountsOf(
    em,
    organizations.map((organization) => organization.id),
  );
  // Only the names: the sealed credentials are not even read.
  const gateways = await em.find(
    GatewayCredentialEntity,
    {},
    { fields: ['organization_id', 'gateway'], orderBy: { gateway: 'asc' } },
  );
  return organizations.map((organization) => ({
    organization,
    bank_accounts: bankAccounts.filter((account) => account.organization_id === organization.id),
    payment_gateways: gateways
      .filter((credentials) => credentials.organization_id === organization.id)
      .map((credentials) => credentials.gateway),
  }));
}

/**
 * update-org: changes the settings given (docs/api.md "Organizations": the base currency, the time
 * zone and test mode are fixed at creation, so they are not among OrganizationChanges). The row is
 * locked, so two updates at once apply one after the other; one audit row lists what changed.
 */
export async function updateOrganization(
  deps: IdentityDeps,
  organizationId: string,
  changes: OrganizationChanges,
): Promise<OrganizationRecord> {
  return inTransaction(deps.orm, async (em) => {
    const organization = await requireOrganizationRow(em, organizationId, true);
    const update = updateOrganizationSettings(organization, changes);
    if (update.violations.length > 0) throw AppError.invalid(update.violations);
    if (Object.keys(update.changed).length > 0) {
      em.assign(organization, update.settings);
      audit(em, organizationId, deps.clock.now(), 'organization.update', 'organization', organizationId, {
        changes: update.changed,
      });
      publishOrganizationEvent(em, 'organization.updated', organization, deps.clock.now());
      await em.flush();
    }
    return recordOf(em, organization);
  });
}

/**
 * set-exchange-rate: the rate of a currency from a day on (replacing one of the same day), published
 * in organization.updated so analytics converts MRR with it from each subscription's next renewal.
 */
export async function setExchangeRate(
  deps: IdentityDeps,
  organizationId: string,
  rate: ExchangeRate,
): Promise<OrganizationRecord> {
  return inTransaction(deps.orm, async (em) => {
    const organization = await requireOrganizationRow(em, organizationId, true);
    const violations = validateExchangeRate(rate, organization.base_currency);
    if (violations.length > 0) throw AppError.invalid(violations);
    organization.exchange_rates = withExchangeRate(organization.exchange_rates ?? [], rate);
    const now = deps.clock.now();
    audit(em, organizationId, now, 'organization.set_exchange_rate', 'organization', organizationId, { ...rate });
    publishOrganizationEvent(em, 'organization.updated', organization, now);
    await em.flush();
    return recordOf(em, organization);
  });
}

/** add-bank-account: a new bank account with the next integer id; one per currency (and one for the rest). */
export async function addBankAccount(
  deps: IdentityDeps,
  organizationId: string,
  given: BankAccountDetails,
): Promise<BankAccountRow> {
  const details = normalizeBankAccount(given);
  return inTransaction(deps.orm, async (em) => {
    // The organization's row lock serializes additions, so the one-per-currency check holds.
    await requireOrganizationRow(em, organizationId, true);
    const others = (await bankAccountsOf(em, [organizationId])).map((other) => ({
      id: other.id,
      currency: other.currency ?? null,
    }));
    const violations = validateBankAccount(details, others);
    if (violations.length > 0) throw AppError.invalid(violations);
    const now = deps.clock.now();
    const account = em.create(BankAccountEntity, {
      organization_id: organizationId,
      ...details,
      created_at: now,
      removed_at: null,
    });
    await em.flush();
    audit(em, organizationId, now, 'bank_account.add', 'bank_account', String(account.id), { ...details });
    await em.flush();
    return account;
  });
}

/**
 * remove-bank-account: new invoices stop naming it; invoices already made keep its id and the
 * details printed on them (the row stays, marked removed).
 */
export async function removeBankAccount(
  deps: IdentityDeps,
  organizationId: string,
  bankAccountId: number,
): Promise<BankAccountRow> {
  return inTransaction(deps.orm, async (em) => {
    await requireOrganizationRow(em, organizationId, true);
    const account = await em.findOne(BankAccountEntity, {
      organization_id: organizationId,
      id: bankAccountId,
      removed_at: null,
    });
    if (!account) throw AppError.notFound(`No bank account ${bankAccountId} in organization ${organizationId}.`);
    const now = deps.clock.now();
    account.removed_at = now;
    audit(em, organizationId, now, 'bank_account.remove', 'bank_account', String(account.id));
    await em.flush();
    return account;
  });
}

export async function getOrganization(deps: IdentityDeps, context: RequestContext): Promise<OrganizationRow> {
  return requireOrganizationRow(deps.orm.em.fork(), requireOrganization(context));
}

/** The caller's organization with its bank accounts (IdentityService.GetOrganization). */
export async function getOrganizationRecord(deps: IdentityDeps, context: RequestContext): Promise<OrganizationRecord> {
  const em = deps.orm.em.fork();
  return recordOf(em, await requireOrganizationRow(em, requireOrganization(context)));
}

export async function requireOrganizationRow(
  em: EntityManager,
  organizationId: string,
  lock = false,
): Promise<OrganizationRow> {
  const organization = await em.findOne(
    OrganizationEntity,
    { id: organizationId },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!organization) throw AppError.notFound(`No organization with id ${organizationId}.`);
  return organization;
}
