import { randomUUID } from 'node:crypto';
import type { Clock } from '@billing/clock';
import { inTransaction, recordAudit } from '@billing/db';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiUserEntity, type ApiUserRow } from '../db/entities/api-user.entity.js';
import { OrganizationEntity, type OrganizationRow } from '../db/entities/organization.entity.js';
import { hashApiToken, newApiToken, tokenPrefix } from '../domain/api-token.js';
import {
  ORGANIZATION_DEFAULTS,
  type OrganizationSettings,
  validateOrganization,
  validateRateLimit,
} from '../domain/organization.js';
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

function audit(
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
): Promise<OrganizationRow> {
  const violations = validateRateLimit(perMinute);
  if (violations.length > 0) throw AppError.invalid(violations);
  return inTransaction(deps.orm, async (em) => {
    const organization = await requireOrganizationRow(em, organizationId);
    organization.rate_limit_per_minute = perMinute;
    audit(em, organizationId, deps.clock.now(), 'organization.set_rate_limit', 'organization', organizationId, {
      perMinute,
    });
    await em.flush();
    return organization;
  });
}

export async function listOrganizations(deps: IdentityDeps): Promise<OrganizationRow[]> {
  return deps.orm.em.fork().find(OrganizationEntity, {}, { orderBy: { created_at: 'asc', id: 'asc' } });
}

export async function getOrganization(deps: IdentityDeps, context: RequestContext): Promise<OrganizationRow> {
  return requireOrganizationRow(deps.orm.em.fork(), requireOrganization(context));
}

async function requireOrganizationRow(em: EntityManager, organizationId: string): Promise<OrganizationRow> {
  const organization = await em.findOne(OrganizationEntity, { id: organizationId });
  if (!organization) throw AppError.notFound(`No organization with id ${organizationId}.`);
  return organization;
}
