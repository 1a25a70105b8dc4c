import type { Write } from '@billing/domain-kit';
import type { catalogV1 } from '@billing/proto';
import type { PlanFields, PlanTermsFields } from '../domain/catalog/plan-fields.js';
import type { PlanTermsView, PlanView } from '../domain/catalog/plan-view.js';

/** proto optional fields are `undefined` when unset; the views say null. */
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export function planTermsMessage(view: PlanTermsView): catalogV1.PlanTerms {
  return { ...view, revenue_group: view.revenue_group ?? undefined };
}

export function planMessage(view: PlanView): catalogV1.Plan {
  return { ...view, planterms: view.planterms.map(planTermsMessage) };
}

/** A REST write arrives as the present field names plus the message; present-but-unset is null. */
function writeOf<Fields>(input: object | undefined, presentFields: string[]): Write<Fields> {
  const message = (input ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = orNull(message[field]);
  return { values: values as Write<Fields>['values'], present: new Set(presentFields) };
}

export const planWrite = (input: catalogV1.PlanInput | undefined, presentFields: string[]) =>
  writeOf<PlanFields>(input, presentFields);

export const planTermsWrite = (input: catalogV1.PlanTermsInput | undefined, presentFields: string[]) =>
  writeOf<PlanTermsFields>(input, presentFields);
