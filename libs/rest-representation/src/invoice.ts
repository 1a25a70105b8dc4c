import type { accountsV1, invoicingV1 } from '@billing/proto';
import { nullable, tagged } from './representation.js';
import { presentEmbeddedAccount } from './subscription.js';

/** The invoice's states and kickback statuses (api-spec "Invoice"). */
export const INVOICE_STATUSES = ['open', 'paid', 'credited'] as const;
/** The states of an e-invoice's delivery to the access point (docs/api.md "E-invoices"). */
export const EINVOICE_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const KICKBACK_STATUSES = ['commission_pending', 'commission_paid'] as const;

/** The accounts invoices and lines embed, by uuid, loaded once per page (invoice-embeds.ts). */
export type AccountsByUuid = ReadonlyMap<string, accountsV1.AccountSummary>;

/** What an invoice's representation needs besides the invoice, loaded once per answer. */
export interface InvoiceEmbeds {
  accounts: AccountsByUuid;
  /**
   * The organization's kickback feature is on: api-spec "kickback_status ... available only when
   * the kickback feature is on", so while it is off every invoice shows null (a status set while
   * it was on is kept and shows again when it is turned back on).
   */
  kickbackEnabled: boolean;
}

/** kickback_status as an invoice shows it (InvoiceEmbeds.kickbackEnabled). */
export function shownKickbackStatus(stored: string | undefined, kickbackEnabled: boolean) {
  return (kickbackEnabled ? nullable(stored) : null) as (typeof KICKBACK_STATUSES)[number] | null;
}

const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

/**
 * A service decimal as the JSON number the list view promises ("250.00" → 250, "1499" → 1499).
 * The services send amounts of at most 20 digits with the currency's decimals; the nearest double
 * of such text prints back as the same amount, so nothing is rounded that a client could see.
 */
export function decimalToNumber(text: string): number {
  if (!DECIMAL_TEXT.test(text)) throw new Error(`not a decimal: "${text}"`);
  return Number(text);
}

/** int64 ids arrive as text; 0 (proto's unset) is a line that is not stored (an upcoming invoice). */
const storedId = (id: string | undefined): number | null =>
  id === undefined || id === '' || id === '0' ? null : Number(id);

const iso = (instant: Date | undefined): string | null => instant?.toISOString() ?? null;

function presentVatBreakdown(part: invoicingV1.VatBreakdown) {
  return tagged('vat_breakdown', { rate: part.rate, base: part.base, vat: part.vat });
}

/**
 * api-spec "Invoice line", plus `vat_rate` (ours). `account` and `account_uuid` are both the
 * account's uuid; `account_code` is the account's code now (the line's own when the account is not
 * known any more).
 */
export function presentInvoiceLine(line: invoicingV1.InvoiceLine, accounts: AccountsByUuid) {
  return tagged('invoice_line', {
    id: storedId(line.id),
    invoice: line.invoice === '' ? null : line.invoice,
    account: line.account,
    account_code: accounts.get(line.account)?.code ?? (line.account_code || null),
    account_uuid: line.account,
    description: line.description,
    sku: line.sku,
    vat_type: line.vat_type,
    collect_vat: line.collect_vat,
    date_from: nullable(line.date_from),
    date_to: nullable(line.date_to),
    price: line.price,
    quantity: line.quantity,
    subtotal: line.subtotal,
    vat: line.vat,
    total: line.total,
    vat_rate: line.vat_rate,
    currency: line.currency,
    imported_line: line.imported_line,
    refund_of: storedId(line.refund_of),
    subscription: nullable(line.subscription),
    terms: nullable(line.terms),
    sort_weight: line.sort_weight,
    draft_invoice_line_pk: nullable(line.draft_invoice_line_pk),
    product_id: nullable(line.product_id),
    revenue_group_id: nullable(line.revenue_group_id),
    reference_person: line.reference_person,
    account_reference_person: line.account_reference_person,
    po_number: line.po_number,
    case_number: line.case_number,
    invoice_supplement: nullable(line.invoice_supplement),
    custom_fields: line.custom_fields ?? {},
  });
}

/** What list and detail share: everything but the totals' type, the lines, the PDF and the URL. */
function invoiceFields(invoice: invoicingV1.Invoice, { accounts, kickbackEnabled }: InvoiceEmbeds) {
  const account = accounts.get(invoice.account);
  return {
    // A computed (upcoming) invoice has neither a uuid nor a number.
    uuid: invoice.uuid === '' ? null : invoice.uuid,
    invoice_number: invoice.invoice_number === undefined ? null : Number(invoice.invoice_number),
    external_invoice_number: invoice.external_invoice_number,
    account: account ? presentEmbeddedAccount(account) : null,
    account_uuid: invoice.account,
    account_code: account?.code ?? invoice.account_code,
    pay_to_bank_account: nullable(invoice.pay_to_bank_account),
    date: invoice.date,
    due_date: invoice.due_date,
    currency: invoice.currency,
    status: invoice.status as (typeof INVOICE_STATUSES)[number],
    kickback_status: shownKickbackStatus(invoice.kickback_status, kickbackEnabled),
    collection_method: invoice.collection_method as 'payment_card' | 'invoice' | 'direct_debit',
    imported: invoice.imported,
    import_source: invoice.import_source,
    created_date: iso(invoice.created_date),
    last_modified_date: iso(invoice.last_modified_date),
    is_credit_note: invoice.is_credit_note,
    credit_note_for: nullable(invoice.credit_note_for),
    payment_terms: invoice.payment_terms,
    vat_breakdown: invoice.vat_breakdown.map(presentVatBreakdown),
    reverse_charge: invoice.reverse_charge,
    vat_note: invoice.vat_note,
    // pending, delivered, failed for an e-invoice; null for an invoice e-mailed as usual.
    einvoice_status: nullable(invoice.einvoice_status) as (typeof EINVOICE_STATUSES)[number] | null,
  };
}

/** The list view: the totals as JSON numbers; no lines, PDF or URL (api-spec "Invoice"). */
export function presentInvoiceListItem(invoice: invoicingV1.Invoice, embeds: InvoiceEmbeds) {
  return tagged('invoice', {
    ...invoiceFields(invoice, embeds),
    total: decimalToNumber(invoice.total),
    subtotal: decimalToNumber(invoice.subtotal),
    vat: decimalToNumber(invoice.vat),
    balance: decimalToNumber(invoice.balance),
  });
}

export interface DetailExtras {
  /** Absolute URL of the invoice's detail endpoint; null for a computed invoice. */
  apiUrl: string | null;
  /** The PDF, when this answer carries it. */
  pdf?: Uint8Array;
}

/** A payment reminder sent for the invoice (docs/api.md "Payment reminders"). */
function presentReminder(reminder: invoicingV1.InvoiceReminder) {
  return {
    number: reminder.number,
    date: reminder.date,
    days_after_due: reminder.days_after_due,
    fee: nullable(reminder.fee),
    fee_draft_line: nullable(reminder.fee_draft_line),
    recipients: reminder.recipients,
    created_date: iso(reminder.created_date),
  };
}

/**
 * The detail view: totals as decimal strings, `invoiceline_set`, `reminder_set` (the payment
 * reminders sent, oldest first), `invoice_api_url` and, where the answer carries it, `pdf_base64`.
 */
export function presentInvoice(invoice: invoicingV1.Invoice, embeds: InvoiceEmbeds, extras: DetailExtras) {
  return tagged('invoice', {
    ...invoiceFields(invoice, embeds),
    total: invoice.total,
    subtotal: invoice.subtotal,
    vat: invoice.vat,
    balance: invoice.balance,
    invoiceline_set: invoice.lines.map((line) => presentInvoiceLine(line, embeds.accounts)),
    reminder_set: invoice.reminders.map(presentReminder),
    invoice_api_url: extras.apiUrl,
    ...(extras.pdf !== undefined ? { pdf_base64: Buffer.from(extras.pdf).toString('base64') } : {}),
  });
}

export function presentKickback(kickbackStatus: string | undefined, kickbackEnabled: boolean) {
  return tagged('invoice_kickback', { kickback_status: shownKickbackStatus(kickbackStatus, kickbackEnabled) });
}

export function presentVatBillingPeriod(period: invoicingV1.VatBillingPeriod) {
  return tagged('vat_billing_period', { display_name: period.display_name, uuid: period.uuid });
}
