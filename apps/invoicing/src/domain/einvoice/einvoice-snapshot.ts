import { buyerEndpoint, type EinvoicingSettings, type Endpoint, sellerEndpoint } from './endpoint.js';

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
  /**
   * The organization runs on a test clock (it cannot leave it): its deliveries fall due on that
   * clock, i.e. when the test clock's advance delivers them, never by the real time.
   */
  on_test_clock: boolean;
}

/**
 * The e-invoice an invoice to this buyer is made as, or null: the account does not use
 * ean_invoicing, or an endpoint Peppol routes to is missing (the buyer's from its ean_number and
 * schema, the seller's from the organization's VAT number); such an invoice is e-mailed.
 */
export function einvoiceSnapshot(
  einvoicing: EinvoicingSettings,
  mappings: readonly FieldMapping[],
  seller: { country: string; vat_number: string },
  onTestClock: boolean,
): EinvoiceSnapshot | null {
  const buyer = buyerEndpoint(einvoicing);
  const own = sellerEndpoint(seller);
  if (buyer === null || own === null) return null;
  const intermediator = einvoicing.einvoicing_intermediator?.trim() ?? '';
  return {
    format: 'peppol_bis',
    buyer_endpoint: buyer,
    seller_endpoint: own,
    intermediator: intermediator === '' ? null : intermediator,
    field_mappings: [...mappings],
    on_test_clock: onTestClock,
  };
}
