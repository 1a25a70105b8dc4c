import {
  ACCOUNT_TYPES,
  COLLECTION_METHODS,
  COUNTRY_CODES,
  EINVOICING_IDENTIFIER_SCHEMAS,
  GENDERS,
  LANGUAGES,
  RESELLER_BILLING_FREQUENCIES,
  RESELLER_BILLING_GROUPINGS,
  TITLES,
} from '@billing/reference-data';
import { z } from 'zod';
import { field, filterField, rangeFilters } from '../../http/index.js';
import { DraftLineSchema } from '../draft-invoice-lines/draft-line-schemas.js';
import { PaymentCardSchema } from '../payment-cards/payment-card-representation.js';
import { PaymentGatewayAccountSchema, RecipientSchema } from '../shared/object-schemas.js';
import { SubscriptionSchema } from '../subscriptions/subscription-schemas.js';

/**
 * The writable account fields with the contract's lengths and value sets (api-spec: Account).
 * Optional fields the spec types as plain strings take null as "" (field.blankableString).
 */
const accountFields = {
  code: field.string({ max: 128 }),
  company_name: field.nullableString({ max: 256 }),
  first_name: field.nullableString({ max: 128 }),
  middle_name: field.string({ max: 128, allowBlank: true }).nullable(),
  last_name: field.nullableString({ max: 128 }),
  title: field.choice(TITLES).nullable(),
  gender: field.choice(GENDERS).nullable(),
  erp_id: field.nullableString({ max: 128 }),
  partner: field.integer().nullable(),
  ean_invoicing: field.boolean(),
  einvoicing_identifier_schema: field.nullAsBlank(field.choice(['', ...EINVOICING_IDENTIFIER_SCHEMAS])),
  ean_number: field.string({ max: 128, allowBlank: true }).nullable(),
  einvoicing_intermediator: field.string({ max: 35, allowBlank: true }).nullable(),
  invoice_note: field.string({ max: 240, allowBlank: true }).nullable(),
  language: field.choice(LANGUAGES),
  legal_address: field.string(),
  legal_zipcode: field.string({ max: 128 }),
  legal_city: field.string({ max: 128 }),
  legal_country: field.country(),
  legal_vat_number: field.blankableString({ max: 128 }),
  billing_same_as_legal: field.boolean(),
  billing_address: field.blankableString(),
  billing_zipcode: field.blankableString({ max: 128 }),
  billing_city: field.blankableString({ max: 128 }),
  billing_country: field.nullAsBlank(field.choice(['', ...COUNTRY_CODES])),
  update_from_registers: field.boolean(),
  default_payment_terms: field.int32().nullable(),
  default_collection_method: field.choice(COLLECTION_METHODS).nullable(),
  is_getting_reminders: field.boolean(),
  reseller: field.uuid().nullable(),
  reseller_code: field.blankableString({ max: 128 }),
  reseller_billing_frequency: field.choice(RESELLER_BILLING_FREQUENCIES).nullable(),
  reseller_billing_grouping: field.choice(RESELLER_BILLING_GROUPINGS).nullable(),
  type: field.choice(ACCOUNT_TYPES).nullable(),
  custom_fields: field.jsonObject(),
  override_business_entity: field.uuid().nullable(),
};

const REQUIRED = ['code', 'legal_address', 'legal_zipcode', 'legal_city', 'legal_country'] as const;

/** Create and PUT: the required fields must be there. */
export const AccountBody = z
  .object(accountFields)
  .partial()
  .required(Object.fromEntries(REQUIRED.map((name) => [name, true])) as { [K in (typeof REQUIRED)[number]]: true });

/** PATCH: anything may be left out. */
export const AccountPatchBody = z.object(accountFields).partial();

export type AccountBodyValues = z.output<typeof AccountPatchBody>;

const nullableText = z.string().nullable();

export const AccountSchema = z
  .object({
    uuid: z.uuid(),
    code: z.string(),
    display_name: z.string(),
    company_name: nullableText,
    first_name: nullableText,
    middle_name: nullableText,
    last_name: nullableText,
    title: nullableText,
    gender: nullableText,
    erp_id: nullableText,
    partner: z.number().int().nullable(),
    ean_invoicing: z.boolean(),
    einvoicing_identifier_schema: z.string(),
    ean_number: nullableText,
    einvoicing_intermediator: nullableText,
    invoice_note: nullableText,
    language: z.string(),
    legal_address: z.string(),
    legal_zipcode: z.string(),
    legal_city: z.string(),
    legal_country: z.string(),
    legal_vat_number: z.string(),
    billing_same_as_legal: z.boolean(),
    billing_address: z.string(),
    billing_zipcode: z.string(),
    billing_city: z.string(),
    billing_country: z.string(),
    update_from_registers: z.boolean(),
    default_payment_terms: z.number().int().nullable(),
    default_collection_method: nullableText,
    is_getting_reminders: z.boolean(),
    reseller: nullableText,
    reseller_code: z.string(),
    reseller_billing_frequency: nullableText,
    reseller_billing_grouping: nullableText,
    type: nullableText,
    custom_fields: z.record(z.string(), z.unknown()),
    override_business_entity: nullableText,
    payment_gateway_account_set: z.array(PaymentGatewayAccountSchema),
    paymentcard_set: z.array(PaymentCardSchema),
    subscription_set: z.array(SubscriptionSchema),
    recipient_set: z.array(RecipientSchema),
    draftinvoiceline_set: z.array(DraftLineSchema),
    created_date: z.string().nullable(),
    last_modified_date: z.string().nullable(),
    eu_vat_status: z.string(),
    register_status: nullableText,
    industry: z.string(),
    is_archived: z.boolean(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'Account' });

/** GET /api/v1/accounts/ filters (api-spec: Account list filters). */
export const AccountFilters = z.object({
  uuid: filterField.uuid(),
  code: filterField.string(),
  type: filterField.choice(ACCOUNT_TYPES),
  is_getting_reminders: filterField.boolean(),
  is_archived: filterField.boolean(),
  override_business_entity: filterField.uuid(),
  search: filterField.string(),
  balance: filterField.number(),
  subscription_status: filterField.choice(['scheduled', 'active', 'not_renewing', 'pending_manual_renewal', 'expired']),
  subscription_collection_method: filterField.choice(COLLECTION_METHODS),
  subscription_set_to_expire: filterField.boolean(),
  legal_country: filterField.choice(COUNTRY_CODES),
  active_payment_method: filterField.choice(COLLECTION_METHODS),
  reseller_program: filterField.boolean(),
  registered_for_direct_debit: filterField.boolean(),
  register_status: filterField.string(),
  ean_invoicing: filterField.boolean(),
  has_recipient_receiving_invoices: filterField.boolean(),
  ...rangeFilters('created_date', filterField.datetime),
  ...rangeFilters('last_modified_date', filterField.datetime),
});

export const ACCOUNT_ORDERING_FIELDS = ['code', 'company_name', 'legal_country', 'created_date', 'last_modified_date'];
