import type { accountsV1 } from '@billing/proto';
import type { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { tagged } from '../shared/representation.js';
import { type MemberOrganizationSchema, OrganizationMemberSchema } from './organization-data-schemas.js';

const MEMBERS = '/api/v1/organization-members/';
const MEMBERS_TWIN = '/api/v1/organization_members/';
const TAGS = ['organization'];

/**
 * The organization as a member shows it (api-spec "Organization member", `organization`). What the
 * platform does not have is its neutral value: no trials (`status` active), no onboarding, no
 * inbound e-mail addresses, no ERP connection, no support access (docs/api.md "Organization members").
 */
function presentOrganization(organization: accountsV1.Organization): z.input<typeof MemberOrganizationSchema> {
  return {
    name: organization.name,
    base_currency: organization.base_currency,
    features: organization.features.map((name) => ({ name })),
    country: organization.country,
    time_zone: organization.time_zone,
    status: 'active',
    trial_expiry: null,
    uses_internal_billing: false,
    onboarding_flow: null,
    inbound_receipt_email: null,
    inbound_invoice_email: null,
    fenerum_support_has_access: false,
    erp_system_name: null,
    erp_debtor_name: null,
    type_of_served_customers: 'B2B',
  };
}

/** An API user as a member: always "API USER", an administrator with its permissions (all). */
function presentMember(
  apiUser: { id: string; permissions: readonly string[] },
  organization: z.input<typeof MemberOrganizationSchema>,
) {
  return tagged('organization_member', {
    uuid: apiUser.id,
    name: 'API USER',
    is_admin: true,
    language: 'en',
    initials: 'AU',
    color: '#4f46e5',
    organization,
    user: { id: apiUser.id, email: '', first_name: 'API', last_name: 'USER', is_staff: false },
    permissions: [...apiUser.permissions],
    is_impersonated: false,
    impersonator: null,
  });
}

/** /api/v1/organization-members/current/ and /available/ (gaps.md §10): the organization's API users. */
export function memberRoutes({ identity, organizationData }: ServiceClients): Route[] {
  const organizationOf = async () => presentOrganization((await identity.call('getOrganization', {})).organization!);

  const current = defineRoute({
    method: 'get',
    path: `${MEMBERS}current/`,
    aliases: [`${MEMBERS_TWIN}current/`],
    operationId: 'getCurrentOrganizationMember',
    summary: 'The member that owns the token (its API user)',
    tags: TAGS,
    response: { status: 200, schema: OrganizationMemberSchema },
    handler: async ({ principal }) =>
      presentMember({ id: principal.apiUserId, permissions: principal.permissions }, await organizationOf()),
  });

  const available = defineListRoute({
    path: `${MEMBERS}available/`,
    aliases: [`${MEMBERS_TWIN}available/`],
    operationId: 'listAvailableOrganizationMembers',
    summary: "The organization's members: its API users with an enabled token, oldest first",
    tags: TAGS,
    item: OrganizationMemberSchema,
    handler: async ({ page }) => {
      const [reply, organization] = await Promise.all([
        organizationData.call('listMembers', { page: pageOf(page) }),
        organizationOf(),
      ]);
      return { count: reply.count, results: reply.members.map((member) => presentMember(member, organization)) };
    },
  });

  return [current, available];
}
