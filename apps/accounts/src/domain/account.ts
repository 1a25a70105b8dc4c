import type { WritableShape } from '@billing/domain-kit';
import { isEuCountry } from '@billing/reference-data';

/**
 * An account as the accounts service keeps it. Field names are the REST contract's (snake_case):
 * the same vocabulary runs from the REST body through protobuf to the table, so nothing is renamed
 * on the way.
 */
export interface AccountFields {
  code: string;
  company_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  title: string | null;
  gender: string | null;
  erp_id: string | null;
  partner: string | null;
  ean_invoicing: boolean;
  einvoicing_identifier_schema: string;
  ean_number: string | null;
  einvoicing_intermediator: string | null;
  invoice_note: string | null;
  language: string;
  legal_address: string;
  legal_zipcode: string;
  legal_city: string;
  legal_country: string;
  legal_vat_number: string;
  billing_same_as_legal: boolean;
  billing_address: string;
  billing_zipcode: string;
  billing_city: string;
  billing_country: string;
  update_from_registers: boolean;
  default_payment_terms: number | null;
  default_collection_method: string | null;
  is_getting_reminders: boolean;
  reseller: string | null;
  type: string | null;
  custom_fields: Record<string, unknown>;
  override_business_entity: string | null;
  reseller_billing_frequency: string | null;
  reseller_billing_grouping: string | null;
}

export type AccountFieldName = keyof AccountFields;

/** Fields a client must send on create and on PUT. */
export const REQUIRED_ACCOUNT_FIELDS = [
  'code',
  'legal_address',
  'legal_zipcode',
  'legal_city',
  'legal_country',
] as const satisfies readonly AccountFieldName[];

/** What an account holds for every field the client did not send on create (documented in docs/api.md). */
export const ACCOUNT_DEFAULTS: Omit<AccountFields, (typeof REQUIRED_ACCOUNT_FIELDS)[number]> = {
  company_name: null,
  first_name: null,
  middle_name: null,
  last_name: null,
  title: null,
  gender: null,
  erp_id: null,
  partner: null,
  ean_invoicing: false,
  einvoicing_identifier_schema: '',
  ean_number: null,
  einvoicing_intermediator: null,
  invoice_note: null,
  language: 'en',
  legal_vat_number: '',
  billing_same_as_legal: true,
  billing_address: '',
  billing_zipcode: '',
  billing_city: '',
  billing_country: '',
  update_from_registers: false,
  default_payment_terms: null,
  default_collection_method: null,
  is_getting_reminders: true,
  reseller: null,
  type: null,
  custom_fields: {},
  override_business_entity: null,
  reseller_billing_frequency: null,
  reseller_billing_grouping: null,
};

export const ACCOUNT_SHAPE: WritableShape<AccountFields> = {
  defaults: ACCOUNT_DEFAULTS,
  required: REQUIRED_ACCOUNT_FIELDS,
};

/** The name people see: the company, else the person's full name, else the code. */
export function displayName(
  account: Pick<AccountFields, 'code' | 'company_name' | 'first_name' | 'middle_name' | 'last_name'>,
): string {
  if (account.company_name) return account.company_name;
  const person = [account.first_name, account.middle_name, account.last_name].filter((part) => part).join(' ');
  return person || account.code;
}

/** `type` when the client gave none: a company name makes a company, otherwise a person. */
export function effectiveType(account: Pick<AccountFields, 'type' | 'company_name'>): string {
  return account.type ?? (account.company_name ? 'company' : 'person');
}

/**
 * EU VAT status as far as this service can tell without calling VIES: `not_applicable` outside
 * the EU or without a VAT number, otherwise `unverified` (no register lookup is made).
 */
export function euVatStatus(account: Pick<AccountFields, 'legal_country' | 'legal_vat_number'>): string {
  return isEuCountry(account.legal_country) && account.legal_vat_number ? 'unverified' : 'not_applicable';
}
