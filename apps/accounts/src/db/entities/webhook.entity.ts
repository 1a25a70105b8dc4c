import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { BASIC_AUTH_MAX, ENDPOINT_MAX } from '../../domain/webhooks/webhook-fields.js';

/**
 * An organization's webhook registration. The password and the signing secret are stored as
 * they are: every delivery sends the one and signs with the other.
 */
export const WebhookEntity = defineEntity({
  name: 'Webhook',
  tableName: 'webhook',
  indexes: [{ name: 'webhook_organization_created_idx', properties: ['organization_id', 'created_at'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    endpoint: p.string().length(ENDPOINT_MAX),
    basic_auth_username: p.string().length(BASIC_AUTH_MAX),
    basic_auth_password: p.string().length(BASIC_AUTH_MAX),
    enabled: p.boolean(),
    /** Public event names (domain/webhooks/event-names). */
    events: p.json<string[]>(),
    /** whsec_ + base64 of 32 random bytes (Standard Webhooks). */
    secret: p.string().length(64),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type WebhookRow = InferEntity<typeof WebhookEntity>;
