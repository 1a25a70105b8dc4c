import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** An API user of an organization and its token; the token is kept only as a SHA-256 hash. */
export const ApiUserEntity = defineEntity({
  name: 'ApiUser',
  tableName: 'api_user',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid().index(),
    name: p.string().length(128),
    token_hash: p.string().length(64).unique(),
    token_prefix: p.string().length(8),
    permissions: p.json<string[]>(),
    created_at: p.datetime(),
    disabled_at: p.datetime().nullable(),
  },
});

export type ApiUserRow = InferEntity<typeof ApiUserEntity>;
