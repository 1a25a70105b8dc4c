import { z } from 'zod';
import { field } from '../../http/index.js';

/**
 * The webhook's writable fields. Types and lengths are checked here; the URL, the event names and
 * the endpoint's network are the accounts service's rules (it answers 400 naming the field).
 */
const webhookFields = {
  endpoint: field.string({ max: 200 }),
  basic_auth_username: field.blankableString({ max: 150 }),
  basic_auth_password: field.blankableString({ max: 150, trim: false }),
  enabled: field.boolean(),
  events: field.list(field.string({ max: 64 })),
};

/** Create and PUT: `endpoint` is required; the rest default (enabled, every default event). */
export const WebhookBody = z.object(webhookFields).partial().required({ endpoint: true });
export const WebhookPatchBody = z.object(webhookFields).partial();

const webhookShape = {
  uuid: z.uuid(),
  endpoint: z.string(),
  basic_auth_username: z.string(),
  enabled: z.boolean(),
  events: z.array(z.string()),
  created_date: z.string(),
  last_modified_date: z.string(),
  model: z.string(),
  schema: z.string(),
};

export const WebhookSchema = z.object(webhookShape).meta({ id: 'Webhook' });

/** The answer to create: the webhook and its signing secret, shown this once. */
export const CreatedWebhookSchema = z.object({ ...webhookShape, secret: z.string() }).meta({ id: 'CreatedWebhook' });

export const WebhookAttemptSchema = z
  .object({
    attempt_date: z.string(),
    response_status: z.number().int().nullable(),
    error: z.string(),
    duration_ms: z.number().int(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDeliverySchema = z
  .object({
    uuid: z.uuid(),
    webhook: z.uuid(),
    event: z.string(),
    event_id: z.uuid(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    next_attempt_date: z.string().nullable(),
    created_date: z.string(),
    payload: z.object({ event: z.string(), data: z.unknown() }),
    attempts: z.array(WebhookAttemptSchema),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

export const DeliveryParams = z.object({ uuid: z.uuid(), delivery: z.uuid() });
