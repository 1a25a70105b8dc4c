import { z } from 'zod';
import { field } from '../../http/index.js';

/** api-spec: the churn reason's name; 100 characters, as the spec's custom_churn_reason. */
export const CHURN_REASON_NAME_MAX = 100;

const churnReasonFields = {
  name: field.string({ max: CHURN_REASON_NAME_MAX }),
  is_active: field.boolean(),
};

/** Create and PUT: `name` is required; `is_active` defaults to true on create. */
export const ChurnReasonBody = z.object(churnReasonFields).partial().required({ name: true });
export const ChurnReasonPatchBody = z.object(churnReasonFields).partial();

export const ChurnReasonSchema = z
  .object({
    uuid: z.uuid(),
    name: z.string(),
    is_active: z.boolean(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'ChurnReason' });
