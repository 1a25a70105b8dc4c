import { COLLECTION_METHODS, CURRENCY_CODES } from '@billing/reference-data';
import { EINVOICE_STATUSES, INVOICE_STATUSES, KICKBACK_STATUSES } from '@billing/rest-representation';
import { z } from 'zod';
import { field, filterField, rangeFilters } from '../../http/index.js';
import { instantFilter } from '../subscriptions/instant-filter.js';
import { EmbeddedAccountSchema } from '../subscriptions/subscription-schemas.js';

/** gaps.md §7. */
export { INVOICE_STATUSES, KICKBACK_STATUSES };

/** Orderable fields of the invoice list; the default is newest invoice number first. */
export const INVOICE_ORDERING = ['invoice_number', 'date', 'due_date', 'total', 'created_date'] as const;
export const DEFAULT_INVOICE_ORDERING = '-invoice_number';

/** Every filter of the invoice list (api-spec "Invoices"). */
export const InvoiceFilters = z.object({
  uuid: filterField.uuid(),
  invoice_number: filterField.integer(),
  search: filterField.string(),
  account: filterField.string(),
  account_not: filterField.string(),
  since: filterField.date().meta({ format: 'date', description: 'Deprecated: use date__gte.' }),
  status_not: filterField.choice(INVOICE_STATUSES),
  total__gt: filterField.number(),
  total__lt: filterField.number(),
  subscription_uuid: filterField.uuid(),
  debt_collection: filterField.boolean(),
  status: filterField.choice(INVOICE_STATUSES),
  currency: filterField.choice(CURRENCY_CODES),
  collection_method: filterField.choice(COLLECTION_METHODS),
  kickback_status: filterField.choice(KICKBACK_STATUSES),
  balance: filterField.number(),
  imported: filterField.boolean(),
  import_source: filterField.string(),
  ...rangeFilters('date', filterField.date),
  ...rangeFilters('due_date', filterField.date),
  ...rangeFilters('created_date', instantFilter),
  ...rangeFilters('last_modified_date', instantFilter),
});

export type InvoiceQuery = z.output<typeof InvoiceFilters>;

/** GET /api/v1/invoicelines/ (gaps.md §7). */
export const InvoiceLineFilters = z.object({
  invoice: filterField.uuid(),
  account: filterField.string(),
  subscription: filterField.uuid(),
});

/** PATCH /api/v1/invoices/{uuid}/: only kickback_status is writable. */
export const KickbackBody = z.object({ kickback_status: field.choice(KICKBACK_STATUSES).nullable() }).partial();

/** POST .../register-payment/. */
export const RegisterPaymentBody = z.object({ registration_date: field.date() });

/** POST .../change-collection-method/. */
export const ChangeCollectionMethodBody = z.object({ collection_method: field.choice(COLLECTION_METHODS) });

/**
 * POST .../apply-credit-note/: the target invoice and, optionally, how much of the credit to move
 * (default: the credit note's balance). Amounts have at most two decimals (ISK none: the service
 * refuses fractions of its minor unit).
 */
export const ApplyCreditNoteBody = z
  .object({
    target_invoice: field.uuid(),
    amount: field.decimal({ maxDigits: 20, decimalPlaces: 2, min: 0.01 }),
  })
  .partial()
  .required({ target_invoice: true });

/** POST /api/v1/accounts/{code}/generate_invoice/ (gaps.md §3); both default as the spec says. */
export const GenerateInvoiceBody = z
  .object({
    collection_method: field.choice(COLLECTION_METHODS),
    payment_terms: field.int32({ min: 0 }),
  })
  .partial();

const date = () => z.string().meta({ format: 'date' });
const timestamp = () => z.string().meta({ format: 'date-time' });
const decimal = () => z.string().meta({ format: 'decimal' });
const tag = { model: z.string(), schema: z.string() };

export const VatBreakdownSchema = z
  .object({ rate: decimal(), base: decimal(), vat: decimal(), ...tag })
  .meta({ id: 'VatBreakdown', description: 'One VAT rate’s part of the invoice (ours).' });

/** api-spec "Invoice line", plus vat_rate (ours). */
export const InvoiceLineSchema = z
  .object({
    id: z.int().nullable(),
    invoice: z.uuid().nullable(),
    account: z.uuid(),
    account_code: z.string().nullable(),
    account_uuid: z.uuid(),
    description: z.string(),
    sku: z.string(),
    vat_type: z.string(),
    collect_vat: z.boolean(),
    date_from: date().nullable(),
    date_to: date().nullable(),
    price: decimal(),
    quantity: decimal(),
    subtotal: decimal(),
    vat: decimal(),
    total: decimal(),
    vat_rate: decimal(),
    currency: z.string(),
    imported_line: z.boolean(),
    refund_of: z.int().nullable(),
    subscription: z.uuid().nullable(),
    terms: z.uuid().nullable(),
    sort_weight: z.int(),
    draft_invoice_line_pk: z.uuid().nullable(),
    product_id: z.uuid().nullable(),
    revenue_group_id: z.int().nullable(),
    reference_person: z.string(),
    account_reference_person: z.string(),
    po_number: z.string(),
    case_number: z.string(),
    invoice_supplement: z.string().nullable(),
    custom_fields: z.record(z.string(), z.unknown()),
    ...tag,
  })
  .meta({ id: 'InvoiceLine' });

/** The fields list and detail share; the four totals differ in type between them. */
const invoiceFields = {
  uuid: z.uuid().nullable(),
  invoice_number: z.int().nullable(),
  external_invoice_number: z.string(),
  account: EmbeddedAccountSchema.nullable(),
  account_uuid: z.uuid(),
  account_code: z.string(),
  pay_to_bank_account: z.int().nullable(),
  date: date(),
  due_date: date(),
  currency: z.string(),
  status: z.enum(INVOICE_STATUSES),
  kickback_status: z.enum(KICKBACK_STATUSES).nullable(),
  collection_method: z.enum(COLLECTION_METHODS),
  imported: z.boolean(),
  import_source: z.string(),
  created_date: timestamp().nullable(),
  last_modified_date: timestamp().nullable(),
  is_credit_note: z.boolean(),
  credit_note_for: z.uuid().nullable(),
  payment_terms: z.int(),
  vat_breakdown: z.array(VatBreakdownSchema),
  reverse_charge: z.boolean(),
  vat_note: z.string(),
  einvoice_status: z.enum(EINVOICE_STATUSES).nullable(),
  ...tag,
};

/** GET /api/v1/invoices/: totals as JSON numbers (api-spec "list view: number"). */
export const InvoiceListItemSchema = z
  .object({ ...invoiceFields, total: z.number(), subtotal: z.number(), vat: z.number(), balance: z.number() })
  .meta({ id: 'InvoiceListItem' });

/** A payment reminder sent for an invoice (docs/api.md "Payment reminders"). */
export const InvoiceReminderSchema = z
  .object({
    number: z.int().meta({ description: '1 for the first reminder of the invoice, 2 for the second, ...' }),
    date: date().meta({ description: "The organization's local day it was sent on." }),
    days_after_due: z.int().meta({ description: "The step of the organization's reminder schedule it was sent for." }),
    fee: decimal().nullable().meta({ description: 'The fee added to the account as a draft line; null: none.' }),
    fee_draft_line: z.uuid().nullable(),
    recipients: z.array(z.string()).meta({ description: 'The addresses it was mailed to (receive_invoice).' }),
    created_date: timestamp().nullable(),
  })
  .meta({ id: 'InvoiceReminder' });

/** GET /api/v1/invoices/{uuid}/ and the actions returning an invoice: totals as decimal strings. */
export const InvoiceSchema = z
  .object({
    ...invoiceFields,
    total: decimal(),
    subtotal: decimal(),
    vat: decimal(),
    balance: decimal(),
    invoiceline_set: z.array(InvoiceLineSchema),
    reminder_set: z.array(InvoiceReminderSchema),
    invoice_api_url: z.string().nullable(),
    pdf_base64: z.string().optional(),
  })
  .meta({ id: 'Invoice' });

export const KickbackSchema = z
  .object({ kickback_status: z.enum(KICKBACK_STATUSES).nullable(), ...tag })
  .meta({ id: 'InvoiceKickback' });

export const SendInvoiceSchema = z
  .object({ detail: z.string(), sent_to: z.array(z.string()) })
  .meta({ id: 'InvoiceSent' });

export const VatBillingPeriodSchema = z
  .object({ display_name: z.string(), uuid: z.string(), ...tag })
  .meta({ id: 'VatBillingPeriod' });
