import { ACCOUNT_ACTIVITY_TYPES, ACTIVITY_TYPES } from '@billing/reference-data';
import { z } from 'zod';
import { FILTER_MESSAGES, field, filterField, orgTzDateFilters, rangeFilters } from '../../http/index.js';
import { instantFilter } from '../subscriptions/instant-filter.js';
import { EmbeddedPlanSchema } from '../subscriptions/subscription-schemas.js';

export { ACCOUNT_ACTIVITY_TYPES, ACTIVITY_TYPES };
export const MRR_CHANGE_TYPES = ['increase', 'decrease', 'none'] as const;

export const ACTIVITY_ORDERING = ['date', 'created_date', 'updated_date', 'mrr_change', 'type'] as const;
export const ACCOUNT_ACTIVITY_ORDERING = [
  'date',
  'created_date',
  'mrr_change',
  'type',
  'account_first_subscription_start_date',
] as const;

/**
 * gaps.md §8: `type` and `activity_type` take one value or a comma-separated list; each value must
 * be one of the choices (django-filter's wording names the first that is not).
 */
function choiceList<const Values extends readonly [string, ...string[]]>(values: Values) {
  const allowed = new Set<string>(values);
  const parsed = z.string().transform((text, context): Values[number][] => {
    if (text.includes('\u0000')) {
      context.addIssue({ code: 'custom', message: FILTER_MESSAGES.nullCharacters });
      return z.NEVER;
    }
    const items = text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    const wrong = items.find((item) => !allowed.has(item));
    if (wrong !== undefined) {
      context.addIssue({ code: 'custom', message: FILTER_MESSAGES.invalidChoice(wrong) });
      return z.NEVER;
    }
    return items as Values[number][];
  });
  return z
    .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), parsed.optional())
    .optional()
    .meta({ type: 'string', description: `One of ${values.join(', ')}, or several separated by commas` });
}

/** A date bound that also takes a date-time, and its org-time-zone twins. */
const dateBounds = <Name extends string>(name: Name) => ({
  ...rangeFilters(name, instantFilter),
  ...orgTzDateFilters(name),
});

/** Every filter of the activity list (api-spec "Activities", gaps.md §8). */
export const ActivityFilters = z.object({
  account: filterField.string(),
  uuid: filterField.uuid(),
  subscription_uuid: filterField.uuid(),
  type: choiceList(ACTIVITY_TYPES),
  activity_type: choiceList(ACTIVITY_TYPES),
  mrr_change_type: filterField.choice(MRR_CHANGE_TYPES),
  is_manual: filterField.boolean(),
  deleted: filterField.boolean(),
  future: filterField.boolean(),
  since: filterField.date().meta({
    format: 'date',
    description: 'Deprecated: created_date__gte, or activity_date__gte with use_activity_date=true.',
  }),
  use_activity_date: filterField.boolean().meta({ description: 'Deprecated: see since.' }),
  ...dateBounds('created_date'),
  ...rangeFilters('updated_date', filterField.datetime),
  ...dateBounds('activity_date'),
});
export type ActivityQuery = z.output<typeof ActivityFilters>;

/** Every filter of the account activity list. */
export const AccountActivityFilters = z.object({
  account: filterField.string(),
  uuid: filterField.uuid(),
  subscription_uuid: filterField.string(),
  is_manual: filterField.boolean(),
  future: filterField.boolean(),
  deleted: filterField.boolean(),
  type: choiceList(ACCOUNT_ACTIVITY_TYPES),
  churn_reason: filterField.string(),
  ...dateBounds('created_date'),
  ...dateBounds('date'),
  ...dateBounds('account_first_subscription_start_date'),
});
export type AccountActivityQuery = z.output<typeof AccountActivityFilters>;

/** MRR in the terms' currency: the precision of prices. */
const MRR_DIGITS = { maxDigits: 20, decimalPlaces: 6 } as const;

const manualActivityFields = {
  subscription: field.uuid().nullable(),
  account: field.string({ max: 128 }),
  date: field.datetime(),
  quantity: field.int32({ min: 1 }),
  terms: field.uuid(),
  mrr: field.decimal({ ...MRR_DIGITS, min: 0 }),
};

/**
 * POST and PUT /api/v1/activities/ (api-spec "Manual activity write body"); `account` (a code) only
 * names the account of an activity without a subscription (docs/analytics.md).
 */
export const ManualActivityBody = z
  .object(manualActivityFields)
  .partial()
  .required({ subscription: true, date: true, quantity: true, terms: true, mrr: true });
export const ManualActivityPatchBody = z.object(manualActivityFields).partial();

const accountActivityFields = {
  account_uuid: field.uuid(),
  account_code: field.string({ max: 128 }),
  company_name: field.blankableString({ max: 256 }),
  type: field.choice(ACCOUNT_ACTIVITY_TYPES),
  new_mrr: field.decimal({ maxDigits: 20, decimalPlaces: 2 }).nullable(),
  old_mrr: field.decimal({ maxDigits: 20, decimalPlaces: 2 }).nullable(),
  date: field.datetime(),
  subscription: field.string({ max: 64 }).nullable(),
  churn_reason: field.blankableString({ max: 256 }),
  account_first_subscription_start_date: field.datetime().nullable(),
  is_manual: field.boolean(),
  deleted: field.boolean(),
};

/** POST and PUT /api/v1/activities/account/ (api-spec "Account activity": required on write). */
export const AccountActivityBody = z.object(accountActivityFields).partial().required({
  account_uuid: true,
  account_code: true,
  company_name: true,
  type: true,
  new_mrr: true,
  old_mrr: true,
  date: true,
  subscription: true,
  churn_reason: true,
  account_first_subscription_start_date: true,
});
export const AccountActivityPatchBody = z.object(accountActivityFields).partial();

const timestamp = () => z.string().meta({ format: 'date-time' });
const decimal = () => z.string().meta({ format: 'decimal' });

export const ActivitySchema = z
  .object({
    uuid: z.uuid(),
    account_uuid: z.uuid(),
    account_code: z.string(),
    subscription: z.string().nullable(),
    invoice: z.uuid().nullable(),
    date: timestamp(),
    created_date: timestamp(),
    updated_date: timestamp(),
    type: z.enum(ACTIVITY_TYPES),
    is_manual: z.boolean(),
    is_churn: z.boolean(),
    deleted: z.boolean(),
    ean_invoice: z.boolean(),
    old_currency: z.string().nullable(),
    new_currency: z.string().nullable(),
    old_mrr_in_subscription_currency: decimal().nullable(),
    new_mrr_in_subscription_currency: decimal().nullable(),
    old_mrr: decimal().nullable(),
    new_mrr: decimal().nullable(),
    mrr_change: decimal().nullable(),
    quantity_change: decimal().nullable(),
    old_quantity: z.int().nullable(),
    new_quantity: z.int().nullable(),
    old_terms: z.uuid().nullable(),
    new_terms: z.uuid().nullable(),
    old_terms_name: z.string().nullable(),
    new_terms_name: z.string().nullable(),
    old_plan: EmbeddedPlanSchema.nullable(),
    new_plan: EmbeddedPlanSchema.nullable(),
    old_plan_name: z.string().nullable(),
    new_plan_name: z.string().nullable(),
    company_name: z.string(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'Activity' });

export const AccountActivitySchema = z
  .object({
    uuid: z.uuid(),
    account_uuid: z.uuid(),
    account_code: z.string(),
    company_name: z.string(),
    type: z.enum(ACCOUNT_ACTIVITY_TYPES),
    mrr_change: decimal(),
    new_mrr: decimal().nullable(),
    old_mrr: decimal().nullable(),
    created_date: timestamp(),
    date: timestamp(),
    subscription: z.string().nullable(),
    is_manual: z.boolean(),
    deleted: z.boolean(),
    churn_reason: z.string(),
    account_first_subscription_start_date: timestamp().nullable(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'AccountActivity' });
