import type { accountsV1 } from '@billing/proto';
import { tagged } from './representation.js';

/** The churn reason as the API shows it, alone and embedded (e.g. `churn_reason` of a subscription). */
export function presentChurnReason(reason: accountsV1.ChurnReason) {
  return tagged('churn_reason', { uuid: reason.uuid, name: reason.name, is_active: reason.is_active });
}
