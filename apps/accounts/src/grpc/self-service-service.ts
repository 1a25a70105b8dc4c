import { type GrpcService, unaryService } from '@billing/grpc';
import { selfServiceV1 } from '@billing/proto';
import type { AccountsDeps } from '../use-cases/deps.js';
import {
  getSelfServiceLink,
  getSelfServiceSession,
  initiateSelfService,
  signInSelfService,
  signOutSelfService,
} from '../use-cases/self-service.js';

/** The customer's self-service sign-in (gaps.md §11; docs/api.md "Self-service"). */
export function selfServiceService(deps: AccountsDeps): GrpcService {
  return unaryService(selfServiceV1.SelfServiceServiceService, {
    initiateSelfService: async (request, context) => {
      const link = await initiateSelfService(deps, context, request.email);
      return { token: link.token, expires_at: link.expiresAt };
    },
    getSelfServiceLink: async (request) => getSelfServiceLink(deps, request.token),
    signInSelfService: async (request) => {
      const session = await signInSelfService(deps, request.token);
      return { session_token: session.sessionToken, expires_at: session.expiresAt };
    },
    getSelfServiceSession: async (request) => {
      const session = await getSelfServiceSession(deps, request.session_token);
      return {
        organization_id: session.organizationId,
        organization_name: session.organizationName,
        organization_time_zone: session.organizationTimeZone,
        ...(session.organizationTime ? { organization_time: session.organizationTime } : {}),
        email: session.email,
        expires_at: session.expiresAt,
        accounts: session.accounts.map((account) => ({
          uuid: account.uuid,
          code: account.code,
          display_name: account.displayName,
          language: account.language,
          card_gateway: account.cardGateway,
        })),
      };
    },
    signOutSelfService: async (request) => {
      await signOutSelfService(deps, request.session_token);
      return {};
    },
  });
}
