import { randomUUID } from 'node:crypto';
import { inTransaction, recordAudit } from '@billing/db';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { GatewayCredentialEntity } from '../db/entities/gateway-credential.entity.js';
import { OrganizationEntity } from '../db/entities/organization.entity.js';
import { gatewayCredentialViolations } from '../domain/gateway-credentials.js';
import { requireOrganization } from './change-transaction.js';
import type { IdentityDeps } from './deps.js';

/** What the admin command line prints about credentials: never a secret, sealed or not. */
export interface GatewayCredentialListing {
  organization_id: string;
  gateway: string;
  configured: boolean;
  updated_at: string | null;
}

const ADMIN = { clientSystem: 'admin-cli', apiUserId: null, externalUser: null, requestId: null };

/**
 * set-gateway-credentials: stores an organization's credentials for a gateway, sealed by `seal`
 * (the caller holds the key; this code never sees it), replacing earlier ones. The audit row names
 * the gateway and the credential names, never their values.
 */
export async function setGatewayCredentials(
  deps: IdentityDeps,
  organizationId: string,
  gateway: string,
  credentials: Record<string, string>,
  seal: (plaintext: string) => string,
): Promise<GatewayCredentialListing> {
  const violations = gatewayCredentialViolations(gateway, credentials);
  if (violations.length > 0) throw AppError.invalid(violations);
  return inTransaction(deps.orm, async (em) => {
    if (!(await em.findOne(OrganizationEntity, { id: organizationId }))) {
      throw AppError.notFound(`No organization with id ${organizationId}.`);
    }
    const now = deps.clock.now();
    const sealed = seal(JSON.stringify(credentials));
    await em
      .createQueryBuilder(GatewayCredentialEntity)
      .insert({ id: randomUUID(), organization_id: organizationId, gateway, sealed, updated_at: now })
      .onConflict(['organization_id', 'gateway'])
      .merge(['sealed', 'updated_at'])
      .execute('run');
    recordAudit(em, {
      ...ADMIN,
      organizationId,
      action: 'gateway_credentials.set',
      objectType: 'organization',
      objectId: organizationId,
      occurredAt: now,
      details: { gateway, names: Object.keys(credentials).sort() },
    });
    await em.flush();
    return { organization_id: organizationId, gateway, configured: true, updated_at: now.toISOString() };
  });
}

/** remove-gateway-credentials: the gateway cannot be used by the organization from then on. */
export async function removeGatewayCredentials(
  deps: IdentityDeps,
  organizationId: string,
  gateway: string,
): Promise<GatewayCredentialListing> {
  return inTransaction(deps.orm, async (em) => {
    const removed = await em.nativeDelete(GatewayCredentialEntity, { organization_id: organizationId, gateway });
    if (removed === 0) throw AppError.notFound(`Organization ${organizationId} has no credentials for ${gateway}.`);
    recordAudit(em, {
      ...ADMIN,
      organizationId,
      action: 'gateway_credentials.remove',
      objectType: 'organization',
      objectId: organizationId,
      occurredAt: deps.clock.now(),
      details: { gateway },
    });
    await em.flush();
    return { organization_id: organizationId, gateway, configured: false, updated_at: null };
  });
}

/** The gateways each organization has credentials for (list-orgs shows their names only). */
export async function configuredGateways(
  deps: IdentityDeps,
  organizationIds: string[],
): Promise<Map<string, string[]>> {
  const rows = await deps.orm.em
    .fork()
    .find(
      GatewayCredentialEntity,
      { organization_id: { $in: organizationIds } },
      { fields: ['organization_id', 'gateway'], orderBy: { gateway: 'asc' } },
    );
  const byOrganization = new Map<string, string[]>();
  for (const row of rows)
    byOrganization.set(row.organization_id, [...(byOrganization.get(row.organization_id) ?? []), row.gateway]);
  return byOrganization;
}

/** The calling organization's sealed credentials for `gateway`, '' when it has none (IdentityService.GetGatewayCredentials). */
export async function sealedGatewayCredentials(
  deps: IdentityDeps,
  context: RequestContext,
  gateway: string,
): Promise<string> {
  const row = await deps.orm.em
    .fork()
    .findOne(GatewayCredentialEntity, { organization_id: requireOrganization(context), gateway });
  return row?.sealed ?? '';
}
