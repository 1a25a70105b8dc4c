import type { Endpoint } from './endpoint.js';

/** One e-invoice field mapping of the organization (api-spec "E-invoice field mapping"). */
export interface FieldMapping {
  target_field: string;
  source_type: string;
  source_builtin_field: string;
  source_custom_field: string | null;
}

/**
 * What an e-invoice is made with beyond the invoice itself, copied into the invoice when it is
 * made (as the parties are): the document never changes when the account or the organization does.
 */
export interface EinvoiceSnapshot {
  format: 'peppol_bis';
  buyer_endpoint: Endpoint;
  seller_endpoint: Endpoint;
  /** The account's einvoicing_intermediator (the operator that receives for it), or null. */
  intermediator: string | null;
  /** The organization's peppol_bis mappings when the invoice was made (none: the defaults). */
  field_mappings: FieldMapping[];
}
