import { AppError } from '@billing/errors';
import { type GrpcService, unaryService } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';
import { organizationSettingsOf } from '../domain/organization.js';
import { authenticate } from '../use-cases/authenticate.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import { sealedGatewayCredentials } from '../use-cases/gateway-credentials.js';
import { getOrganizationRecord } from '../use-cases/organizations.js';
import { advanceTestClock } from '../use-cases/test-clock.js';
import { bankAccountMessage } from './organization-mapper.js';

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
        organization_time_zone: principal.organizationTimeZone,
        ...(principal.organizationTime ? { organization_time: principal.organizationTime } : {}),
      };
    },
    getOrganization: async (_request, context) => {
      const { organization, bank_accounts } = await getOrganizationRecord(deps, context);
      return {
        organization: {
          ...organizationSettingsOf(organization),
          features: organization.features,
          bank_accounts: bank_accounts.map(bankAccountMessage),
          exchange_rates: organization.exchange_rates ?? [],
          ...(organization.test_clock_time ? { test_clock_time: organization.test_clock_time } : {}),
        },
      };
    },
    getGatewayCredentials: async (request, context) => ({
      sealed: await sealedGatewayCredentials(deps, context, request.gateway),
    }),
    advanceTestClock: async (request, context) => {
      if (!request.to) throw AppError.invalidField('to', 'This field is required.');
      const move = await advanceTestClock(deps, context, request.to);
      return { time: move.time, previous_time: move.previousTime, time_zone: move.timeZone };
    },
  });
}
