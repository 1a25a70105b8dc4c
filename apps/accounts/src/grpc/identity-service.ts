import { type GrpcService, unaryService } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';
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
        organization: {
          id: organization.id,
          name: organization.name,
          country: organization.country,
          base_currency: organization.base_currency,
          time_zone: organization.time_zone,
          default_payment_terms: organization.default_payment_terms,
          default_collection_method: organization.default_collection_method,
          rate_limit_per_minute: organization.rate_limit_per_minute,
          features: organization.features,
        },
      };
    },
  });
}
