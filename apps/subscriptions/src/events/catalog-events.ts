import { catalogEventsV1, encodeMessage } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { PlanTermsView, PlanView } from '../domain/catalog/plan-view.js';
import { planMessage, planTermsMessage } from '../grpc/catalog-mapper.js';

export type PlanEventType = 'plan.created' | 'plan.updated';
export type PlanTermsEventType = 'plan_terms.created' | 'plan_terms.updated' | 'plan_terms.deleted';

/** Subjects this service publishes on (stream SUBSCRIPTIONS): subscriptions.plan.created, ... */
export const CATALOG_EVENT_TYPES: readonly (PlanEventType | PlanTermsEventType)[] = [
  'plan.created',
  'plan.updated',
  'plan_terms.created',
  'plan_terms.updated',
  'plan_terms.deleted',
];

/** Appends a plan event carrying the plan's new state with its terms. */
export function publishPlanEvent(scope: ChangeScope, eventType: PlanEventType, plan: PlanView): void {
  scope.publish({
    eventType,
    aggregateType: 'plan',
    aggregateId: plan.uuid,
    payloadType: 'billing.events.v1.PlanChanged',
    payload: encodeMessage(catalogEventsV1.PlanChanged, { plan: planMessage(plan) }),
  });
}

/** Appends a plan terms event carrying the terms' new (for deleted: last) state. */
export function publishPlanTermsEvent(scope: ChangeScope, eventType: PlanTermsEventType, terms: PlanTermsView): void {
  scope.publish({
    eventType,
    aggregateType: 'plan_terms',
    aggregateId: terms.uuid,
    payloadType: 'billing.events.v1.PlanTermsChanged',
    payload: encodeMessage(catalogEventsV1.PlanTermsChanged, { plan_terms: planTermsMessage(terms) }),
  });
}
