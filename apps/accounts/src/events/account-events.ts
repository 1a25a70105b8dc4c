import { accountEventsV1, encodeMessage } from '@billing/proto';
import { type AccountView, EMPTY_READ_MODEL } from '../domain/account-view.js';
import { accountMessage } from '../grpc/account-mapper.js';
import type { ChangeScope } from '../use-cases/change-transaction.js';

export type AccountEventType = 'account.created' | 'account.updated' | 'account.deleted';

/** Subjects this service publishes on (stream ACCOUNTS): accounts.account.created, ... */
export const ACCOUNT_EVENT_TYPES: readonly AccountEventType[] = [
  'account.created',
  'account.updated',
  'account.deleted',
];

/**
 * Appends an account event carrying the account's new (for deleted: last) state. The event leaves
 * out the subscriptions and draft lines: they are other services' data, which those services'
 * own events announce, and a copy here would be stale at the next of their changes.
 */
export function publishAccountEvent(scope: ChangeScope, eventType: AccountEventType, view: AccountView): void {
  const account = { ...view, read_model: EMPTY_READ_MODEL };
  scope.publish({
    eventType,
    aggregateType: 'account',
    aggregateId: account.uuid,
    payloadType: 'billing.events.v1.AccountChanged',
    payload: encodeMessage(accountEventsV1.AccountChanged, { account: accountMessage(account) }),
  });
}
