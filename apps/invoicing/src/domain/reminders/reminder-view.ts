/** A payment reminder of an invoice as the service presents it (docs/api.md "Payment reminders"). */
export interface InvoiceReminderView {
  /** 1 for the invoice's first reminder, 2 for the second, ... */
  number: number;
  /** The organization's local day it was sent on (YYYY-MM-DD). */
  date: string;
  days_after_due: number;
  /** The fee added to the account as a draft line (decimal text with the currency's decimals); null: none. */
  fee: string | null;
  /** The draft line of the fee (its uuid); null without a fee. */
  fee_draft_line: string | null;
  /** The e-mail addresses it was mailed to (recipients with receive_invoice). */
  recipients: string[];
  created_date: Date;
}
