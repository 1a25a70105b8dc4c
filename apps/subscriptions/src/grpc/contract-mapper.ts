import type { Write } from '@billing/domain-kit';
import type { contractsV1 } from '@billing/proto';
import type { ContractFields, TierFields } from '../domain/catalog/contract-fields.js';
import type { ContractView, TierView } from '../domain/catalog/contract-view.js';

/** proto optional fields are `undefined` when unset; the views say null. */
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export function tierMessage(view: TierView): contractsV1.ContractTier {
  return { ...view, maximum_quantity: view.maximum_quantity ?? undefined };
}

export function contractMessage(view: ContractView): contractsV1.Contract {
  return { ...view, end_date: view.end_date ?? undefined, tiers: view.tiers.map(tierMessage) };
}

/** A REST write arrives as the present field names plus the message; present-but-unset is null. */
function writeOf<Fields>(input: object | undefined, presentFields: string[]): Write<Fields> {
  const message = (input ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = orNull(message[field]);
  return { values: values as Write<Fields>['values'], present: new Set(presentFields) };
}

export const contractWrite = (input: contractsV1.ContractInput | undefined, presentFields: string[]) =>
  writeOf<ContractFields>(input, presentFields);

export const tierWrite = (input: contractsV1.TierInput | undefined, presentFields: string[]) =>
  writeOf<TierFields>(input, presentFields);
