/** A draft line as the API shows it (api-spec "Draft invoice line"). */
export interface DraftLineView {
  uuid: string;
  account: string;
  description: string;
  vat_type: string;
  collect_vat: boolean;
  date_from: string | null;
  date_to: string | null;
  price: string;
  quantity: string;
  discount_percentage: string | null;
  discount_fixed_per_quantity: string | null;
  discount_fixed_total: string | null;
  currency: string;
  include_in_next_renewal_invoice: boolean;
  revenue_group: string | null;
  created_date: Date;
  last_modified_date: Date;
  reference_person: string;
  account_reference_person: string;
  po_number: string;
  case_number: string;
  invoice_supplement: string | null;
  custom_fields: Record<string, unknown>;
  /** Orders the line's states for read models (see the entity). */
  version: number;
}
