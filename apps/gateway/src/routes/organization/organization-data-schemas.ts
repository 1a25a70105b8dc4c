import { z } from 'zod';
import { filterField } from '../../http/index.js';

const tag = { model: z.string(), schema: z.string() };

/** api-spec "Organization member", `organization`. */
export const MemberOrganizationSchema = z
  .object({
    name: z.string(),
    base_currency: z.string(),
    features: z.array(z.object({ name: z.string() })),
    country: z.string(),
    time_zone: z.string(),
    status: z.string(),
    trial_expiry: z.string().nullable(),
    uses_internal_billing: z.boolean(),
    onboarding_flow: z.string().nullable(),
    inbound_receipt_email: z.string().nullable(),
    inbound_invoice_email: z.string().nullable(),
    fenerum_support_has_access: z.boolean(),
    erp_system_name: z.string().nullable(),
    erp_debtor_name: z.string().nullable(),
    type_of_served_customers: z.string(),
  })
  .meta({ id: 'MemberOrganization' });

/** api-spec "Organization member": an API user of the organization. */
export const OrganizationMemberSchema = z
  .object({
    uuid: z.uuid(),
    name: z.string(),
    is_admin: z.boolean(),
    language: z.string(),
    initials: z.string(),
    color: z.string(),
    organization: MemberOrganizationSchema,
    user: z.object({
      id: z.uuid(),
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      is_staff: z.boolean(),
    }),
    permissions: z.array(z.string()),
    is_impersonated: z.boolean(),
    impersonator: z.string().nullable(),
    ...tag,
  })
  .meta({ id: 'OrganizationMember' });

/** api-spec "ERP account budget". */
export const AccountBudgetSchema = z
  .object({
    budget_id: z.string(),
    erp_account: z.object({
      uuid: z.uuid(),
      name: z.string(),
      display_name: z.string(),
      account_number: z.int(),
      account_number_str: z.string(),
      vat_code: z.string(),
      account_type: z.string(),
      totals_from: z.int().nullable(),
      totals_to: z.int().nullable(),
    }),
    start_date: z.string(),
    end_date: z.string(),
    start_amount: z.string(),
    calculated_amount: z.string(),
    ...tag,
  })
  .meta({ id: 'AccountBudget' });

export const AccountBudgetFilters = z.object({ budget_id: filterField.string() });

/** Budget ids are positive integers (int32); anything else names no budget: 404. */
export const BudgetIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/)
    .refine((id) => Number(id) <= 2_147_483_647),
});

/** api-spec "E-invoice field mapping"; the available fields have the same shape, `uuid` null. */
export const EinvoiceFieldMappingSchema = z
  .object({
    uuid: z.uuid().nullable(),
    format: z.string(),
    target_field: z.string(),
    source_type: z.string(),
    source_builtin_field: z.string(),
    source_custom_field: z.uuid().nullable(),
    ...tag,
  })
  .meta({ id: 'EinvoiceFieldMapping' });
