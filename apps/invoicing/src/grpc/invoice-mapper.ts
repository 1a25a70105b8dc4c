import type { commonV1, invoicingV1 } from '@billing/proto';
import type { BankAccountSnapshot } from '../domain/bank-account.js';
import type { InvoiceLineListFilter, InvoiceListFilter } from '../domain/invoice-list.js';
import type { InvoiceLineView, InvoiceView } from '../domain/invoice-view.js';

/** The views say null; proto optional fields are unset (`undefined`). */
const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** An invoice line as the proto carries it (replies, and the lines of invoice events). */
export function invoiceLineMessage(line: InvoiceLineView): invoicingV1.InvoiceLine {
  return {
    ...line,
    date_from: orUndefined(line.date_from),
    date_to: orUndefined(line.date_to),
    refund_of: orUndefined(line.refund_of),
    subscription: orUndefined(line.subscription),
    terms: orUndefined(line.terms),
    draft_invoice_line_pk: orUndefined(line.draft_invoice_line_pk),
    product_id: orUndefined(line.product_id),
    invoice_supplement: orUndefined(line.invoice_supplement),
  };
}

/** An invoice as the proto carries it (replies, and the state in invoice events). */
export function invoiceMessage(invoice: InvoiceView): invoicingV1.Invoice {
  return {
    ...invoice,
    invoice_number: orUndefined(invoice.invoice_number),
    pay_to_bank_account: orUndefined(invoice.pay_to_bank_account),
    kickback_status: orUndefined(invoice.kickback_status),
    lines: invoice.lines.map(invoiceLineMessage),
    created_date: orUndefined(invoice.created_date),
    last_modified_date: orUndefined(invoice.last_modified_date),
    credit_note_for: orUndefined(invoice.credit_note_for),
    einvoice_status: orUndefined(invoice.einvoice_status),
    bank_account: invoice.bank_account ? bankAccountMessage(invoice.bank_account) : undefined,
    reminders: (invoice.reminders ?? []).map((reminder) => ({
      ...reminder,
      fee: orUndefined(reminder.fee),
      fee_draft_line: orUndefined(reminder.fee_draft_line),
    })),
  };
}

function bankAccountMessage(account: BankAccountSnapshot): commonV1.BankAccount {
  return {
    id: account.id,
    ...(account.currency !== null ? { currency: account.currency } : {}),
    iban: account.iban,
    bic: account.bic,
    reg_number: account.reg_number,
    account_number: account.account_number,
  };
}

/** The invoice list's filters (unset: none). */
export function invoiceListFilter(filter: invoicingV1.InvoiceFilter | undefined): InvoiceListFilter {
  return filter ?? {};
}

/** The invoice line list's filters (unset: none). */
export function invoiceLineListFilter(filter: invoicingV1.InvoiceLineFilter | undefined): InvoiceLineListFilter {
  return filter ?? {};
}
