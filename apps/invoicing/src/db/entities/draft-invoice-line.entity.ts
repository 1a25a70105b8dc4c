import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A draft invoice line of an account (the accounts service's uuid; no cross-schema reference),
 * waiting to be invoiced. Invoicing sets `invoiced_at` and `invoice_id` once, in the transaction
 * that issues the invoice; from then on the line is no longer part of the API.
 */
export const DraftInvoiceLineEntity = defineEntity({
  name: 'DraftInvoiceLine',
  tableName: 'draft_invoice_line',
  indexes: [
    {
      name: 'draft_invoice_line_organization_account_idx',
      properties: ['organization_id', 'account_id', 'created_at'],
    },
    { name: 'draft_invoice_line_organization_created_idx', properties: ['organization_id', 'created_at'] },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    description: p.text(),
    vat_type: p.string().length(16),
    collect_vat: p.boolean(),
    /** YYYY-MM-DD (text: a local day, never a timestamp). */
    date_from: p.string().length(10).nullable(),
    date_to: p.string().length(10).nullable(),
    /** numeric(20, 6): read and written as text, computed with decimal.js, never a float. */
    price: p.decimal('string').precision(20).scale(6),
    quantity: p.decimal('string').precision(20).scale(6),
    discount_percentage: p.decimal('string').precision(20).scale(6).nullable(),
    discount_fixed_per_quantity: p.decimal('string').precision(20).scale(6).nullable(),
    discount_fixed_total: p.decimal('string').precision(20).scale(6).nullable(),
    currency: p.string().length(3),
    include_in_next_renewal_invoice: p.boolean(),
    revenue_group: p.string().length(128).nullable(),
    reference_person: p.string().length(128),
    account_reference_person: p.string().length(128),
    po_number: p.string().length(128),
    case_number: p.string().length(128),
    invoice_supplement: p.text().nullable(),
    custom_fields: p.json<Record<string, unknown>>(),
    /** Set once, when the line is put on an invoice. */
    invoiced_at: p.datetime().nullable(),
    invoice_id: p.uuid().nullable(),
    /**
     * 1 on creation, +1 with every committed change (including being invoiced), so a read model
     * that gets the line's states by more than one path keeps only the newest.
     */
    version: p.integer().default(1),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type DraftInvoiceLineRow = InferEntity<typeof DraftInvoiceLineEntity>;
