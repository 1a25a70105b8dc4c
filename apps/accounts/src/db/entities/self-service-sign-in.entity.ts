import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * One self-service sign-in (gaps.md §11): the link made for a recipient's e-mail and, once the
 * link is used, the session it opened. Tokens are kept only as SHA-256 hashes.
 */
export const SelfServiceSignInEntity = defineEntity({
  name: 'SelfServiceSignIn',
  tableName: 'self_service_sign_in',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid().index(),
    /** Normalized (trimmed, lower case): the accounts are found by it at every read. */
    email: p.string().length(254),
    link_token_hash: p.string().length(64).unique(),
    link_expires_at: p.datetime(),
    created_at: p.datetime(),
    signed_in_at: p.datetime().nullable(),
    session_token_hash: p.string().length(64).nullable().unique(),
    session_expires_at: p.datetime().nullable(),
    signed_out_at: p.datetime().nullable(),
  },
});

export type SelfServiceSignInRow = InferEntity<typeof SelfServiceSignInEntity>;
