import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { absoluteRequestUrl, defineRoute, field, type Route } from '../../http/index.js';
import { selfServiceSignInPath } from '../../pages/self-service/self-service-paths.js';

/**
 * api-spec "Self-service link", gaps.md §11: a sign-in URL with a single-use token valid one hour
 * for a recipient of one of the organization's accounts (the accounts service decides who).
 */
export function selfServiceRoutes({ selfService }: ServiceClients): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/self-service/initiate-organization/',
      aliases: ['/api/self_service/initiate_organization/'],
      operationId: 'initiateSelfService',
      summary: "A sign-in URL to the customer's self-service page",
      description:
        "For a recipient of one of the organization's accounts (e-mail compared without case) while the organization's self_service feature is on; 400 on `email` otherwise. The URL holds a single-use token valid one hour; it opens a page where the customer sees the account's invoices (PDF) and subscriptions and adds and disables payment cards.",
      tags: ['self-service'],
      body: z.object({ email: field.email() }),
      response: { status: 200, schema: z.object({ url: z.string() }) },
      handler: async ({ body, req }) => {
        const { token } = await selfService.call('initiateSelfService', { email: body.email });
        return { url: `${absoluteRequestUrl(req).origin}${selfServiceSignInPath(token)}` };
      },
    }),
  ];
}
