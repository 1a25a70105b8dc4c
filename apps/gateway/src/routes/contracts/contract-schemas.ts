import { z } from 'zod';
import { field } from '../../http/index.js';
import { PRICE_DIGITS } from '../catalog/catalog-schemas.js';

export const DISCOUNT_TYPES = ['percentage', 'fixed'] as const;

const contractFields = {
  plan_terms: field.uuid(),
  start_date: field.date(),
  end_date: field.date().nullable(),
  commitment_length: field.int32({ min: 0, max: 32_767 }),
  exclusive_tiers: field.boolean(),
};

/** Create and PUT: plan_terms and start_date are required; the rest have defaults. */
export const ContractBody = z.object(contractFields).partial().required({ plan_terms: true, start_date: true });
export const ContractPatchBody = z.object(contractFields).partial();

const tierFields = {
  minimum_quantity: field.int32({ min: 1 }),
  maximum_quantity: field.int32({ min: 1 }).nullable(),
  discount: field.decimal(PRICE_DIGITS),
  discount_type: field.choice(DISCOUNT_TYPES),
};

/** Create and PUT: minimum_quantity, discount and discount_type are required. */
export const TierBody = z
  .object(tierFields)
  .partial()
  .required({ minimum_quantity: true, discount: true, discount_type: true });
export const TierPatchBody = z.object(tierFields).partial();

export const TierSchema = z
  .object({
    id: z.uuid(),
    minimum_quantity: z.int(),
    maximum_quantity: z.int().nullable(),
    discount: z.string().meta({ format: 'decimal' }),
    discount_type: z.enum(DISCOUNT_TYPES),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'ContractTier' });

export const ContractSchema = z
  .object({
    uuid: z.uuid(),
    account: z.uuid(),
    account_code: z.string(),
    plan_terms: z.uuid(),
    start_date: z.string().meta({ format: 'date' }),
    end_date: z.string().meta({ format: 'date' }).nullable(),
    commitment_length: z.int(),
    exclusive_tiers: z.boolean(),
    tiers: z.array(TierSchema),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'Contract' });
