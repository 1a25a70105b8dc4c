import { CURRENCY_CODES, INTERVAL_TYPES, VAT_TYPES } from '@billing/reference-data';
import { z } from 'zod';
import { field, filterField } from '../../http/index.js';

/** Prices: up to 20 digits, 6 of them decimals (numeric(20,6) in the service), never negative. */
export const PRICE_DIGITS = { maxDigits: 20, decimalPlaces: 6, min: 0 } as const;

const planFields = {
  name: field.string({ max: 256 }),
  code: field.string({ max: 128 }),
  // Optional and defaulting to "": null is taken as "" like the spec's plain string fields.
  description: field.blankableString(),
  collect_vat: field.boolean(),
  vat_type: field.choice(VAT_TYPES),
};

/** Create and PUT: name, code, collect_vat and vat_type are required. */
export const PlanBody = z
  .object(planFields)
  .partial()
  .required({ name: true, code: true, collect_vat: true, vat_type: true });
export const PlanPatchBody = z.object(planFields).partial();

const planTermsFields = {
  plan: field.uuid(),
  code: field.string({ max: 128 }),
  interval_type: field.choice(INTERVAL_TYPES),
  interval_count: field.int32({ min: 1 }),
  price: field.decimal(PRICE_DIGITS),
  currency: field.currency(),
  backwards_charging: field.boolean(),
  active: field.boolean(),
  revenue_group: field.nullableString({ max: 128 }),
};

/** Create: everything but revenue_group is required; `active` is not taken (new terms are active). */
export const PlanTermsBody = z.object(planTermsFields).omit({ active: true }).partial().required({
  plan: true,
  code: true,
  interval_type: true,
  interval_count: true,
  price: true,
  currency: true,
  backwards_charging: true,
});

/**
 * PATCH: validated like create so a bad value reads as such; the service refuses every field but
 * active, code, price and revenue_group ("This field cannot be changed after creation.").
 */
export const PlanTermsPatchBody = z.object(planTermsFields).partial();

export const PlanTermsFilters = z.object({
  plan: filterField.uuid(),
  active: filterField.boolean(),
  currency: filterField.choice(CURRENCY_CODES),
});

export const PlanTermsSchema = z
  .object({
    uuid: z.uuid(),
    plan: z.uuid(),
    code: z.string(),
    interval_type: z.enum(INTERVAL_TYPES),
    interval_count: z.int(),
    price: z.string().meta({ format: 'decimal' }),
    currency: z.string(),
    backwards_charging: z.boolean(),
    active: z.boolean(),
    revenue_group: z.string().nullable(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'PlanTerms' });

export const PlanSchema = z
  .object({
    uuid: z.uuid(),
    name: z.string(),
    code: z.string(),
    description: z.string(),
    collect_vat: z.boolean(),
    vat_type: z.enum(VAT_TYPES),
    planterms_set: z.array(PlanTermsSchema),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'Plan' });
