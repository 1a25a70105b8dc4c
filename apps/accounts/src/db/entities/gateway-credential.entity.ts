import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An organization's credentials for one payment gateway (gaps.md §10, §11), sealed with the
 * operator's GATEWAY_CREDENTIALS_KEY (libs/config sealed-secret): this service stores and hands
 * them over sealed and never opens them; the payments service does. Set with the admin command
 * line; never logged, never printed back.
 */
export const GatewayCredentialEntity = defineEntity({
  name: 'GatewayCredential',
  tableName: 'gateway_credential',
  uniques: [{ name: 'gateway_credential_organization_gateway_uniq', properties: ['organization_id', 'gateway'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    gateway: p.string().length(32),
    sealed: p.text(),
    updated_at: p.datetime(),
  },
});

export type GatewayCredentialRow = InferEntity<typeof GatewayCredentialEntity>;
