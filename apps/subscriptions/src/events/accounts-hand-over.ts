/**
 * The events the accounts read model is built from (its stream consumer reads the same subject),
 * handed straight to it after each commit (readModelHandOver of @billing/read-model-client), so an
 * account read right after a subscription write shows it.
 */
export const ACCOUNTS_READ_MODEL_EVENT_TYPES = ['subscription.changed'] as const;
