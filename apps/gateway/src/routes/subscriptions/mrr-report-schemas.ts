import { z } from 'zod';
import { DRF_MESSAGES, filterField } from '../../http/index.js';

/** GET /subscriptions/mrr-per-month/: year and month are required. */
export const MrrPerMonthQuery = z
  .object({
    year: filterField.integer(),
    month: filterField.integer(),
    subscription: filterField.uuid(),
  })
  .superRefine((query, context) => {
    const problem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (query.year === undefined) problem('year', DRF_MESSAGES.required);
    else if (query.year < 1 || query.year > 9999) problem('year', 'Enter a valid year.');
    if (query.month === undefined) problem('month', DRF_MESSAGES.required);
    else if (query.month < 1 || query.month > 12) problem('month', 'Enter a valid month.');
  });

const decimal = () => z.string().meta({ format: 'decimal' });
const timestamp = () => z.string().meta({ format: 'date-time' });

export const TotalMrrSchema = z
  .object({
    total_mrr: decimal(),
    future_mrr: decimal(),
    pending_manual_renewal_mrr: decimal(),
    subscriptions_count: z.int(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'TotalMrr' });

export const MrrRowSchema = z
  .object({
    month: timestamp(),
    account_uuid: z.uuid(),
    subscription_uuid: z.uuid(),
    company_name: z.string(),
    legal_country: z.string(),
    collection_method: z.string(),
    payment_terms: z.int().nullable(),
    next_renewal_date: timestamp().nullable(),
    terms_interval_type: z.string(),
    terms_interval_count: z.int(),
    currency: z.string(),
    quantity: z.int(),
    plan_name: z.string(),
    plan_uuid: z.string(),
    revenue_group_id: z.string().nullable(),
    revenue_group_name: z.string().nullable(),
    mrr: z.number(),
    active: z.boolean(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'MrrRow' });

export const ActivityMonthSchema = z
  .object({
    month: z.string().meta({ description: 'YYYY-MM (organization’s time zone)' }),
    activities: z.int(),
    mrr_change: decimal(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'ActivityMonth' });

export const CohortSchema = z
  .object({
    cohort: z.string().meta({ description: 'YYYY-MM of the accounts’ first subscription start' }),
    accounts: z.int(),
    starting_mrr: decimal(),
    periods: z.array(z.object({ period: z.int(), accounts: z.int(), mrr: decimal() })),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'RetentionCohort' });
