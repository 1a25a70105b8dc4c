import { contractEventsV1, encodeMessage } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { ContractView } from '../domain/catalog/contract-view.js';
import { contractMessage } from '../grpc/contract-mapper.js';

export type ContractEventType = 'contract.created' | 'contract.updated' | 'contract.deleted';

/** Subjects this service publishes on (stream SUBSCRIPTIONS): subscriptions.contract.created, ... */
export const CONTRACT_EVENT_TYPES: readonly ContractEventType[] = [
  'contract.created',
  'contract.updated',
  'contract.deleted',
];

/** Appends a contract event carrying the contract's new (for deleted: last) state with its tiers. */
export function publishContractEvent(scope: ChangeScope, eventType: ContractEventType, contract: ContractView): void {
  scope.publish({
    eventType,
    aggregateType: 'contract',
    aggregateId: contract.uuid,
    payloadType: 'billing.events.v1.ContractChanged',
    payload: encodeMessage(contractEventsV1.ContractChanged, { contract: contractMessage(contract) }),
  });
}
