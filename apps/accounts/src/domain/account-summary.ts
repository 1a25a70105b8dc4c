import { type AccountFields, displayName, effectiveType } from './account.js';

/**
 * The minimal account other objects embed (api-spec: uuid, display_name, company_name, code,
 * type), plus the account's default payment terms, which subscriptions need for their
 * effective_payment_terms.
 */
export interface AccountSummary {
  uuid: string;
  code: string;
  display_name: string;
  company_name: string | null;
  /** Always company or person: embedded accounts show the type the account counts as. */
  type: string;
  payment_terms: number | null;
}

/** The account fields a summary shows. */
export type SummaryFields = Pick<
  AccountFields,
  'code' | 'company_name' | 'first_name' | 'middle_name' | 'last_name' | 'type' | 'default_payment_terms'
>;

export function accountSummary(uuid: string, fields: SummaryFields): AccountSummary {
  return {
    uuid,
    code: fields.code,
    display_name: displayName(fields),
    company_name: fields.company_name,
    type: effectiveType(fields),
    payment_terms: fields.default_payment_terms,
  };
}
