/**
 * E-invoice field mappings (api-spec "E-invoice field mapping"): which value of ours fills which
 * field of an e-invoice format. The formats, their target fields (PEPPOL BIS Billing 3.0 business
 * terms) and the value each is filled from unless the organization imports a mapping of its own.
 */
export const EINVOICE_FORMATS = ['peppol_bis'] as const;

/** Where a mapped value comes from: one of ours (`builtin`) or a custom field of the organization's. */
export const EINVOICE_SOURCE_TYPES = ['builtin', 'custom_field'] as const;

/** Our values a `builtin` mapping can take (fields of the invoice, its subscription and account). */
export const EINVOICE_BUILTIN_FIELDS = [
  'po_number',
  'reference_person',
  'account_reference_person',
  'case_number',
  'invoice_supplement',
  'account_code',
  'invoice_number',
] as const;

export type EinvoiceFormat = (typeof EINVOICE_FORMATS)[number];
export type EinvoiceBuiltinField = (typeof EINVOICE_BUILTIN_FIELDS)[number];

export interface EinvoiceTargetField {
  format: EinvoiceFormat;
  target_field: string;
  /** The business term of the format (EN 16931). */
  business_term: string;
  /** The builtin value it is filled from by default; null: left empty by default. */
  default_source: EinvoiceBuiltinField | null;
}

/** Every field a mapping can target, in the order of the format's specification. */
export const EINVOICE_TARGET_FIELDS: readonly EinvoiceTargetField[] = [
  { format: 'peppol_bis', target_field: 'buyer_reference', business_term: 'BT-10', default_source: 'reference_person' },
  { format: 'peppol_bis', target_field: 'project_reference', business_term: 'BT-11', default_source: 'case_number' },
  { format: 'peppol_bis', target_field: 'contract_reference', business_term: 'BT-12', default_source: null },
  { format: 'peppol_bis', target_field: 'order_reference', business_term: 'BT-13', default_source: 'po_number' },
  { format: 'peppol_bis', target_field: 'accounting_cost', business_term: 'BT-19', default_source: 'account_code' },
  { format: 'peppol_bis', target_field: 'invoice_note', business_term: 'BT-22', default_source: 'invoice_supplement' },
  {
    format: 'peppol_bis',
    target_field: 'buyer_contact_name',
    business_term: 'BT-56',
    default_source: 'account_reference_person',
  },
];

export function isEinvoiceTargetField(format: string, targetField: string): boolean {
  return EINVOICE_TARGET_FIELDS.some((field) => field.format === format && field.target_field === targetField);
}
