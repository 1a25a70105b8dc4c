import {
  CANCELLATION_TYPES,
  CHANGE_TYPES,
  COLLECTION_METHODS,
  SUBSCRIPTION_STATUSES,
  VAT_TYPES,
} from '@billing/reference-data';
import { z } from 'zod';
import { AFTER_FIELD_CHECKS, field, filterField, orgTzDateFilters, rangeFilters } from '../../http/index.js';
import { PlanTermsSchema, PRICE_DIGITS } from '../catalog/catalog-schemas.js';
import { instantFilter } from './instant-filter.js';

export { CANCELLATION_TYPES, CHANGE_TYPES, SUBSCRIPTION_STATUSES };

/** Orderable fields of the subscription list (the service maps them to its columns). */
export const SUBSCRIPTION_ORDERING = [
  'start_date',
  'next_renewal_date',
  'end_date',
  'created_date',
  'last_modified_date',
  'status',
] as const;

/** Date fields of the list that take __lte/__gte and __org_tz_lte/__org_tz_gte. */
export const SUBSCRIPTION_DATE_FILTERS = ['start_date', 'next_renewal_date', 'end_date', 'last_modified_date'] as const;

/** 0..11: the N-th next renewal (0 is the next one). */
const renewalIndex = () => field.integer({ min: 0, max: 11 });
/** po_number and the references: plain strings in the spec, so null is taken as "" (gaps.md §3). */
const text128 = () => field.blankableString({ max: 128 });

/** The writable fields of the Subscription table (api-spec), each with its constraint. */
const writableFields = {
  terms: field.uuid(),
  start_date: field.datetime().nullable(),
  quantity: field.int32({ min: 0 }),
  collection_method: field.choice(COLLECTION_METHODS),
  group_on_invoice: field.boolean(),
  is_auto_renew_enabled: field.boolean(),
  payment_terms: field.int32({ min: 0 }).nullable(),
  pre_renewal_days_offset: field.integer({ min: 0, max: 32_767 }),
  po_number: text128(),
  invoice_supplement: field.nullableString({ allowBlank: true }),
  override_price: field.decimal(PRICE_DIGITS).nullable(),
  reference_person: text128(),
  account_reference_person: text128(),
  case_number: text128(),
  churn_reason: field.uuid().nullable(),
  custom_churn_reason: field.nullableString({ max: 100, allowBlank: true }),
  custom_fields: field.jsonObject(),
};

/**
 * POST /api/v1/subscriptions/: account (a code), terms and collection_method are required;
 * pre_renewal_invoicing is writable on create only.
 */
export const SubscriptionCreateBody = z
  .object({ account: field.string({ max: 128 }), ...writableFields, pre_renewal_invoicing: field.boolean() })
  .partial()
  .required({ account: true, terms: true, collection_method: true });

/** POST /api/v1/accounts/{code}/subscribe/. */
export const SubscribeBody = z
  .object({
    terms: field.uuid(),
    quantity: field.int32({ min: 1 }),
    collection_method: field.choice(COLLECTION_METHODS),
    group_on_invoice: field.boolean(),
  })
  .partial()
  .required({ terms: true, quantity: true, collection_method: true });

/** The fields of an update that say how it takes effect (not stored on the subscription). */
export const CHANGE_OPTION_FIELDS = [
  'change_type',
  'prorate_date',
  'change_renewal',
  'early_renewal',
  'prorate',
] as const;

const ONLY_WITH = {
  prorateDate: 'Only allowed with change_type at_specified_time.',
  changeRenewal: 'Only allowed with change_type at_renewal.',
  earlyRenewal: 'Only allowed with change_type immediate or at_specified_time.',
  cancelRenewal: 'Only allowed with cancellation_type at_renewal.',
  cancelDate: 'Only allowed with cancellation_type at_specified_time.',
} as const;

export const REQUIRED_WITH = {
  prorateDate: 'This field is required with change_type at_specified_time.',
  cancelDate: 'This field is required with cancellation_type at_specified_time.',
} as const;

/**
 * PUT and PATCH /api/v1/subscriptions/{uuid}/ (both partial, api-spec "Versioning" 3): the
 * writable fields plus how the change takes effect. The shapes of the combinations are checked
 * here (DRF's validate(), after the fields); whether the subscription's state allows the change is
 * the service's call.
 */
export const SubscriptionUpdateBody = z
  .object({
    ...writableFields,
    change_type: field.choice(CHANGE_TYPES),
    prorate_date: field.datetime(),
    change_renewal: renewalIndex(),
    early_renewal: field.boolean(),
    prorate: field.boolean(),
  })
  .partial()
  .superRefine((body, context) => {
    const changeType = body.change_type ?? 'immediate';
    const problem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (body.prorate_date !== undefined && changeType !== 'at_specified_time') {
      problem('prorate_date', ONLY_WITH.prorateDate);
    }
    if (changeType === 'at_specified_time' && body.prorate_date === undefined) {
      problem('prorate_date', REQUIRED_WITH.prorateDate);
    }
    if (body.change_renewal !== undefined && changeType !== 'at_renewal') {
      problem('change_renewal', ONLY_WITH.changeRenewal);
    }
    if (body.early_renewal === true && changeType === 'at_renewal') problem('early_renewal', ONLY_WITH.earlyRenewal);
  }, AFTER_FIELD_CHECKS);

/** POST /api/v1/subscriptions/{uuid}/cancel/. */
export const CancelBody = z
  .object({
    cancellation_type: field.choice(CANCELLATION_TYPES),
    cancel_renewal: renewalIndex(),
    cancel_date: field.datetime(),
  })
  .partial()
  .required({ cancellation_type: true })
  .superRefine((body, context) => {
    const problem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (body.cancel_renewal !== undefined && body.cancellation_type !== 'at_renewal') {
      problem('cancel_renewal', ONLY_WITH.cancelRenewal);
    }
    if (body.cancel_date !== undefined && body.cancellation_type !== 'at_specified_time') {
      problem('cancel_date', ONLY_WITH.cancelDate);
    }
    if (body.cancellation_type === 'at_specified_time' && body.cancel_date === undefined) {
      problem('cancel_date', REQUIRED_WITH.cancelDate);
    }
  }, AFTER_FIELD_CHECKS);

const dateFilters = Object.assign(
  {},
  ...SUBSCRIPTION_DATE_FILTERS.map((name) => ({ ...rangeFilters(name, instantFilter), ...orgTzDateFilters(name) })),
) as Record<`${(typeof SUBSCRIPTION_DATE_FILTERS)[number]}__${'lte' | 'gte'}`, ReturnType<typeof instantFilter>> &
  Record<
    `${(typeof SUBSCRIPTION_DATE_FILTERS)[number]}__${'org_tz_lte' | 'org_tz_gte'}`,
    ReturnType<typeof filterField.date>
  >;

/** Every filter of the subscription list (api-spec "Subscriptions"). */
export const SubscriptionFilters = z.object({
  account: filterField.string(),
  plan: filterField.uuid(),
  terms: filterField.uuid(),
  status: filterField.choice(SUBSCRIPTION_STATUSES),
  collection_method: filterField.choice(COLLECTION_METHODS),
  set_to_expire: filterField.boolean(),
  has_custom_price: filterField.boolean(),
  has_recipient_receiving_invoices: filterField.boolean(),
  account_active_payment_method: filterField.choice(COLLECTION_METHODS),
  ...dateFilters,
});

export type SubscriptionQuery = z.output<typeof SubscriptionFilters>;

const timestamp = () => z.string().meta({ format: 'date-time' });
const decimal = () => z.string().meta({ format: 'decimal' });

export const EmbeddedAccountSchema = z
  .object({
    uuid: z.uuid(),
    display_name: z.string(),
    company_name: z.string().nullable(),
    code: z.string(),
    type: z.enum(['company', 'person']),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'EmbeddedAccount' });

export const EmbeddedPlanSchema = z
  .object({
    uuid: z.uuid(),
    name: z.string(),
    code: z.string(),
    collect_vat: z.boolean(),
    vat_type: z.enum(VAT_TYPES),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'EmbeddedPlan' });

export const EmbeddedChurnReasonSchema = z
  .object({ uuid: z.uuid(), name: z.string(), is_active: z.boolean(), model: z.string(), schema: z.string() })
  .meta({ id: 'EmbeddedChurnReason' });

export const ScheduledChangeSchema = z
  .object({
    uuid: z.uuid(),
    date: timestamp(),
    terms: z.uuid(),
    quantity: z.int(),
    change_type: z.enum(CHANGE_TYPES),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'ScheduledChange' });

export const SubscriptionSchema = z
  .object({
    uuid: z.uuid(),
    account: EmbeddedAccountSchema.nullable(),
    account_uuid: z.uuid(),
    account_code: z.string().nullable(),
    terms: PlanTermsSchema,
    plan: EmbeddedPlanSchema,
    start_date: timestamp().nullable(),
    end_date: timestamp().nullable(),
    created_date: timestamp(),
    last_modified_date: timestamp(),
    next_renewal_date: timestamp().nullable(),
    last_renewal_date: timestamp().nullable(),
    base_renewal_date: timestamp().nullable(),
    original_start_date: timestamp().nullable(),
    quantity: z.int(),
    collection_method: z.enum(COLLECTION_METHODS),
    group_on_invoice: z.boolean(),
    is_auto_renew_enabled: z.boolean(),
    payment_terms: z.int().nullable(),
    effective_payment_terms: z.string(),
    pre_renewal_days_offset: z.int(),
    pre_renewal_invoicing: z.boolean(),
    po_number: z.string(),
    invoice_supplement: z.string().nullable(),
    override_price: decimal().nullable(),
    reference_person: z.string(),
    account_reference_person: z.string(),
    case_number: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    current_mrr: decimal(),
    committed_mrr: decimal(),
    final_price: decimal(),
    churn_reason: EmbeddedChurnReasonSchema.nullable(),
    custom_churn_reason: z.string().nullable(),
    custom_fields: z.record(z.string(), z.unknown()),
    scheduled_changes: z.array(ScheduledChangeSchema),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'Subscription' });
