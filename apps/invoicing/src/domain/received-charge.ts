import type { ChargeFacts, ChargeLineFacts } from './charge-lines.js';

/**
 * A charge of the subscription engine as invoicing receives it: from charge.created, or previewed
 * for the upcoming invoice.
 */
export interface ReceivedCharge extends ChargeFacts {
  /** '' for a previewed charge, which is not stored. */
  uuid: string;
  /** When it falls due: its invoice is dated that day where the organization is; null: now. */
  due_at: Date | null;
  /** The subscription's payment terms; null: the account's, else the organization's. */
  payment_terms: number | null;
  /** cancel_invalid: every invoice of the subscription is credited in full. */
  credit_all_invoices: boolean;
  lines: ChargeLineFacts[];
}
