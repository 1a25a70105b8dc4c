import { AppError } from '@billing/errors';
import { ApiUserEntity } from '../db/entities/api-user.entity.js';
import { OrganizationEntity } from '../db/entities/organization.entity.js';
import { hashApiToken } from '../domain/api-token.js';
import type { AccountsDeps } from './deps.js';

export interface Principal {
  organizationId: string;
  apiUserId: string;
  apiUserName: string;
  rateLimitPerMinute: number;
  permissions: string[];
  organizationTimeZone: string;
  /** Test mode only: the organization's own clock, read at this moment (never cache it). */
  organizationTime: Date | null;
}

/** Unknown and disabled tokens are the same failure: the caller learns nothing about which. */
export async function authenticate(deps: AccountsDeps, token: string): Promise<Principal> {
  const em = deps.orm.em.fork();
  const user = await em.findOne(ApiUserEntity, { token_hash: hashApiToken(token), disabled_at: null });
  if (!user) throw AppError.unauthenticated();
  const organization = await em.findOne(OrganizationEntity, { id: user.organization_id });
  if (!organization) throw AppError.unauthenticated();
  return {
    organizationId: organization.id,
    apiUserId: user.id,
    apiUserName: user.name,
    rateLimitPerMinute: organization.rate_limit_per_minute,
    permissions: user.permissions,
    organizationTimeZone: organization.time_zone,
    organizationTime: organization.test_clock_time ?? null,
  };
}
