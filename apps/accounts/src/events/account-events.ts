import { accountEventsV1 } from '@billing/proto';
import type { AccountView } from '../domain/account-view.js';
import { accountMessage } from '../grpc/account-mapper.js';
import type { ChangeScope } from '../use-cases/change-transaction.js';

export type AccountEventType = 'account.created' | 'account.updated' | 'account.deleted';

/** Subjects this service publishes on (stream ACCOUNTS): accounts.account.created, ... */
export const ACCOUNT_EVENT_TYPES: readonly AccountEventType[] = [
  'account.created',
  'account.updated',
  'account.deleted',
];

/** Appends an account event carrying the account's new (for deleted: last) state. */
export function publishAccountEvent(scope: ChangeScope, eventType: AccountEventType, account: AccountView): void {
  scope.publish({
    eventType,
    aggregateType: 'account',
    aggregateId: account.uuid,
    payloadType: 'billing.events.v1.AccountChanged',
    payload: accountEventsV1.AccountChanged.encode({ account: accountMessage(account) }).finish(),
  });
}
