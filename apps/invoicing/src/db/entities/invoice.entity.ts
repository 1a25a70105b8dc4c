import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { BankAccountSnapshot } from '../../domain/bank-account.js';
import type { EinvoiceSnapshot } from '../../domain/einvoice/einvoice-snapshot.js';
import type { PartySnapshot, VatPart } from '../../domain/invoice-view.js';

/**
 * An invoice or credit note. `status` 'pending' is internal: a grouped renewal invoice still
 * collecting lines (no number yet, not visible); issuing numbers it and makes it `open`.
 */
export const InvoiceEntity = defineEntity({
  name: 'Invoice',
  tableName: 'invoice',
  uniques: [{ name: 'invoice_organization_number_unique', properties: ['organization_id', 'invoice_number'] }],
  indexes: [
    { name: 'invoice_organization_date_idx', properties: ['organization_id', 'date'] },
    { name: 'invoice_organization_account_idx', properties: ['organization_id', 'account_id'] },
    { name: 'invoice_pending_idx', properties: ['status', 'issue_after'] },
    { name: 'invoice_group_idx', properties: ['organization_id', 'group_key'] },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    account_code: p.string().length(128),
    invoice_number: p.bigint('number').nullable(),
    external_invoice_number: p.string().length(128),
    /** YYYY-MM-DD, the organization's local day of issue. */
    date: p.string().length(10),
    due_date: p.string().length(10),
    currency: p.string().length(3),
    status: p.string().length(16),
    kickback_status: p.string().length(32).nullable(),
    collection_method: p.string().length(32),
    payment_terms: p.integer(),
    subtotal: p.decimal('string').precision(20).scale(6),
    vat: p.decimal('string').precision(20).scale(6),
    total: p.decimal('string').precision(20).scale(6),
    balance: p.decimal('string').precision(20).scale(6),
    is_credit_note: p.boolean(),
    credit_note_for: p.uuid().nullable(),
    reverse_charge: p.boolean(),
    vat_note: p.text(),
    vat_breakdown: p.json<VatPart[]>(),
    seller: p.json<PartySnapshot>(),
    buyer: p.json<PartySnapshot>(),
    /** The seller's bank account the invoice is paid to (`pay_to_bank_account`), as it was when made. */
    bank_account: p.json<BankAccountSnapshot>().nullable(),
    language: p.string().length(8),
    /**
     * Set when the account had ean_invoicing (and both endpoints were known) when the invoice was
     * made: the invoice is an e-invoice, delivered to the access point instead of e-mailed.
     */
    einvoice: p.json<EinvoiceSnapshot>().nullable(),
    /** pending, delivered, failed; null for an invoice that is not an e-invoice (`einvoice_status`). */
    einvoice_status: p.string().length(16).nullable(),
    po_number: p.string().length(128),
    /** Grouped renewal invoices: the key its lines share; null for every other invoice. */
    group_key: p.text().nullable(),
    /** A pending invoice is issued once this moment has passed without new lines. */
    issue_after: p.datetime().nullable(),
    paid_date: p.string().length(10).nullable(),
    imported: p.boolean(),
    import_source: p.string().length(32),
    issued_at: p.datetime().nullable(),
    /**
     * Orders the invoice's published states for their readers (the accounts read model): 0 while
     * pending, 1 in invoice.issued, +1 for every later change published (publishInvoiceChange).
     */
    version: p.integer().default(0),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type InvoiceRow = InferEntity<typeof InvoiceEntity>;
