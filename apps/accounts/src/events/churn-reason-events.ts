import { accountEventsV1, encodeMessage } from '@billing/proto';
import type { ChurnReasonView } from '../domain/churn-reason.js';
import type { ChangeScope } from '../use-cases/change-transaction.js';

export type ChurnReasonEventType = 'churn_reason.created' | 'churn_reason.updated' | 'churn_reason.deleted';

/**
 * Appends a churn reason event (stream ACCOUNTS) with the reason's state after the change:
 * analytics names the churn of its account activities by it (gaps.md §8).
 */
export function publishChurnReasonEvent(scope: ChangeScope, eventType: ChurnReasonEventType, view: ChurnReasonView) {
  scope.publish({
    eventType,
    aggregateType: 'churn_reason',
    aggregateId: view.uuid,
    payloadType: 'billing.events.v1.ChurnReasonChanged',
    payload: encodeMessage(accountEventsV1.ChurnReasonChanged, { churn_reason: view }),
  });
}
