import type { ChargeLineRecord } from './lifecycle/index.js';

/** A charge line with the facts of its plan and terms an invoice line shows, as they were when it was made. */
export interface ChargeLineView extends ChargeLineRecord {
  plan_name: string;
  plan_code: string;
  terms_code: string;
  collect_vat: boolean;
  vat_type: string;
  revenue_group: string | null;
}

/**
 * A charge as invoicing receives it (charge.created) and a renewal preview shows it: its lines,
 * and the invoice fields of its subscription at that moment.
 */
export interface ChargeView {
  /** '' for a previewed charge, which is not stored. */
  uuid: string;
  subscription: string;
  account: string;
  kind: string;
  currency: string;
  /** The sum of the lines. */
  amount: string;
  due_at: Date;
  /** The start of the period a renewal charge is for (renewal grouping key). */
  period_start: Date;
  lines: ChargeLineView[];
  group_on_invoice: boolean;
  po_number: string;
  payment_terms: number | null;
  collection_method: string;
  invoice_supplement: string | null;
  reference_person: string;
  account_reference_person: string;
  case_number: string;
  custom_fields: Record<string, unknown>;
  credit_all_invoices: boolean;
}
