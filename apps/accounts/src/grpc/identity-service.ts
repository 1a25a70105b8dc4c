import { type GrpcService, unaryService } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';
import { organizationSettingsOf } from '../domain/organization.js';
import { authenticate } from '../use-cases/authenticate.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import { getOrganization } from '../use-cases/organizations.js';

export function identityService(deps: AccountsDeps): GrpcService {
  return unaryService(accountsV1.IdentityServiceService, {
    authenticate: async (request) => {
      const principal = await authenticate(deps, request.token);
      return {
        organization_id: principal.organizationId,
        api_user_id: principal.apiUserId,
        api_user_name: principal.apiUserName,
        rate_limit_per_minute: principal.rateLimitPerMinute,
        permissions: principal.permissions,
      };
    },
    getOrganization: async (_request, context) => {
      const organization = await getOrganization(deps, context);
      return {
        organization: { ...organizationSettingsOf(organization), features: organization.features },
      };
    },
  });
}
