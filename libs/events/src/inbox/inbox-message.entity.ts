import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * The events a consumer has already handled. The row is inserted in the same transaction as the
 * handler's effects, so a redelivered event finds it and is acknowledged without a second effect.
 */
export const InboxMessage = defineEntity({
  name: 'InboxMessage',
  tableName: 'inbox',
  properties: {
    consumer: p.text().primary(),
    messageId: p.uuid().primary(),
    processedAt: p.datetime(),
  },
});

export type IInboxMessage = InferEntity<typeof InboxMessage>;
