import { randomUUID } from 'node:crypto';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { GatewayCredentialEntity } from '../db/entities/gateway-credential.entity.js';
import { OrganizationEntity, type OrganizationRow } from '../db/entities/organization.entity.js';
import { SelfServiceSignInEntity, type SelfServiceSignInRow } from '../db/entities/self-service-sign-in.entity.js';
import { accountsForEmail, type SelfServiceAccountRow } from '../db/self-service-store.js';
import { displayName } from '../domain/account.js';
import { recipientsHaveSelfService } from '../domain/organization.js';
import {
  hashSelfServiceToken,
  type LinkState,
  linkState,
  newSelfServiceToken,
  normalizeEmail,
  SELF_SERVICE_LINK_LIFETIME_MS,
  SELF_SERVICE_SESSION_LIFETIME_MS,
  selfServiceCardGateway,
  sessionIsOpen,
} from '../domain/self-service.js';
import { runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

export const NO_SELF_SERVICE_ACCESS = 'No recipient with this e-mail has access to self-service.';

export interface SelfServiceAccount {
  uuid: string;
  code: string;
  displayName: string;
  language: string;
  /** '' when the account has no gateway to add a card through (domain selfServiceCardGateway). */
  cardGateway: string;
}

export interface SelfServiceSession {
  organizationId: string;
  organizationName: string;
  organizationTimeZone: string;
  organizationTime: Date | null;
  email: string;
  expiresAt: Date;
  accounts: SelfServiceAccount[];
}

/** "Now" for the organization: its test clock's time when it runs on one. */
const nowOf = (deps: AccountsDeps, organization: OrganizationRow): Date =>
  organization.test_clock_time ?? deps.clock.now();

const toAccount = (row: SelfServiceAccountRow, credentialed: ReadonlySet<string>): SelfServiceAccount => ({
  uuid: row.id,
  code: row.code,
  displayName: displayName(row),
  language: row.language,
  cardGateway:
    selfServiceCardGateway(
      row.gateways.map((payment_gateway) => ({ payment_gateway })),
      credentialed,
    ) ?? '',
});

/**
 * POST /api/self-service/initiate-organization/ (gaps.md §11): a link for a recipient of one of the
 * calling organization's accounts, while its self_service feature is on (400 on `email` otherwise:
 * has_access_to_self_service is false for every recipient then).
 */
export async function initiateSelfService(
  deps: AccountsDeps,
  context: RequestContext,
  email: string,
): Promise<{ token: string; expiresAt: Date }> {
  return runChange(deps, context, async (scope) => {
    const organization = await scope.em.findOneOrFail(OrganizationEntity, { id: scope.organizationId });
    const normalized = normalizeEmail(email);
    const accounts = recipientsHaveSelfService(organization.features)
      ? await accountsForEmail(scope.em, scope.organizationId, normalized)
      : [];
    if (accounts.length === 0) throw AppError.invalidField('email', NO_SELF_SERVICE_ACCESS);
    const token = newSelfServiceToken();
    const expiresAt = new Date(scope.now.getTime() + SELF_SERVICE_LINK_LIFETIME_MS);
    const row = scope.em.create(SelfServiceSignInEntity, {
      id: randomUUID(),
      organization_id: scope.organizationId,
      email: normalized,
      link_token_hash: hashSelfServiceToken(token),
      link_expires_at: expiresAt,
      created_at: scope.now,
      signed_in_at: null,
      session_token_hash: null,
      session_expires_at: null,
      signed_out_at: null,
    });
    await scope.em.flush();
    // The e-mail stays out of the audit row: the accounts it opens say whom it was for.
    scope.audit('self_service.initiate', 'self_service_sign_in', row.id, { accounts: accounts.map((a) => a.id) });
    return { token, expiresAt };
  });
}

async function organizationOf(em: EntityManager, row: SelfServiceSignInRow): Promise<OrganizationRow> {
  const organization = await em.findOne(OrganizationEntity, { id: row.organization_id });
  if (!organization) throw AppError.notFound();
  return organization;
}

/** A link's state and the language of the first account it opens ('en' when it opens none now). */
export async function getSelfServiceLink(
  deps: AccountsDeps,
  token: string,
): Promise<{ state: LinkState; language: string }> {
  const em = deps.orm.em.fork();
  const row = await em.findOne(SelfServiceSignInEntity, { link_token_hash: hashSelfServiceToken(token) });
  if (!row) throw AppError.notFound();
  const organization = await organizationOf(em, row);
  const [first] = await accountsForEmail(em, row.organization_id, row.email);
  return { state: linkState(row, nowOf(deps, organization)), language: first?.language ?? 'en' };
}

/**
 * Uses the link up and opens a session: exactly once, however many requests race (the row is
 * locked; the loser finds it used). A used or expired link is refused (`LINK_USED`,
 * `LINK_EXPIRED`), as is one whose organization turned self_service off since.
 */
export async function signInSelfService(
  deps: AccountsDeps,
  token: string,
): Promise<{ sessionToken: string; expiresAt: Date }> {
  const em = deps.orm.em.fork();
  return em.transactional(async (tx) => {
    const row = await tx.findOne(
      SelfServiceSignInEntity,
      { link_token_hash: hashSelfServiceToken(token) },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!row) throw AppError.notFound();
    const organization = await organizationOf(tx, row);
    const now = nowOf(deps, organization);
    const state = linkState(row, now);
    if (state === 'used') throw AppError.refused('LINK_USED', 'This sign-in link was already used.');
    if (state === 'expired') throw AppError.refused('LINK_EXPIRED', 'This sign-in link has expired.');
    if (!recipientsHaveSelfService(organization.features)) throw selfServiceOff();
    const sessionToken = newSelfServiceToken();
    const expiresAt = new Date(now.getTime() + SELF_SERVICE_SESSION_LIFETIME_MS);
    tx.assign(row, {
      signed_in_at: now,
      session_token_hash: hashSelfServiceToken(sessionToken),
      session_expires_at: expiresAt,
    });
    return { sessionToken, expiresAt };
  });
}

const selfServiceOff = () => AppError.refused('SELF_SERVICE_OFF', 'Self-service is not available.');

/**
 * The open session of `sessionToken`: its organization and the accounts its e-mail opens now.
 * UNAUTHENTICATED when unknown, expired, signed out or opening no account any more;
 * `SELF_SERVICE_OFF` while the organization's feature is off.
 */
export async function getSelfServiceSession(deps: AccountsDeps, sessionToken: string): Promise<SelfServiceSession> {
  const em = deps.orm.em.fork();
  const row = sessionToken
    ? await em.findOne(SelfServiceSignInEntity, { session_token_hash: hashSelfServiceToken(sessionToken) })
    : null;
  if (!row) throw AppError.unauthenticated('Not signed in.');
  const organization = await organizationOf(em, row);
  if (!sessionIsOpen(row, nowOf(deps, organization))) throw AppError.unauthenticated('Not signed in.');
  if (!recipientsHaveSelfService(organization.features)) throw selfServiceOff();
  const [accounts, credentials] = await Promise.all([
    accountsForEmail(em, row.organization_id, row.email),
    em.find(GatewayCredentialEntity, { organization_id: row.organization_id }, { fields: ['gateway'] }),
  ]);
  if (accounts.length === 0) throw AppError.unauthenticated('Not signed in.');
  const credentialed = new Set(credentials.map((credential) => credential.gateway));
  return {
    organizationId: organization.id,
    organizationName: organization.name,
    organizationTimeZone: organization.time_zone,
    organizationTime: organization.test_clock_time ?? null,
    email: row.email,
    expiresAt: row.session_expires_at!,
    accounts: accounts.map((account) => toAccount(account, credentialed)),
  };
}

/** Ends the session (an unknown or ended one: nothing to do). */
export async function signOutSelfService(deps: AccountsDeps, sessionToken: string): Promise<void> {
  if (!sessionToken) return;
  const em = deps.orm.em.fork();
  const row = await em.findOne(SelfServiceSignInEntity, { session_token_hash: hashSelfServiceToken(sessionToken) });
  if (!row || row.signed_out_at) return;
  const organization = await organizationOf(em, row);
  row.signed_out_at = nowOf(deps, organization);
  await em.flush();
}
