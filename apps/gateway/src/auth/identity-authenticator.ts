import { isAppError, StatusCode } from '@billing/errors';
import type { ServiceClients } from '../clients/service-clients.js';
import type { Authenticator, Principal } from '../http/index.js';

/** Asks the accounts service (where identity lives) who a token belongs to. */
export class IdentityAuthenticator implements Authenticator {
  constructor(private readonly identity: ServiceClients['identity']) {}

  async authenticate(token: string): Promise<Principal | null> {
    try {
      const reply = await this.identity.call('authenticate', { token }, { deadlineMs: 2_000 });
      return {
        organizationId: reply.organization_id,
        apiUserId: reply.api_user_id,
        apiUserName: reply.api_user_name,
        rateLimitPerMinute: reply.rate_limit_per_minute,
        permissions: reply.permissions,
        ...(reply.organization_time_zone ? { organizationTimeZone: reply.organization_time_zone } : {}),
        ...(reply.organization_time ? { organizationTime: reply.organization_time.toISOString() } : {}),
      };
    } catch (error) {
      // Unknown and disabled tokens are an answer (401); anything else is an outage (503).
      if (isAppError(error) && error.code === StatusCode.UNAUTHENTICATED) return null;
      throw error;
    }
  }
}
