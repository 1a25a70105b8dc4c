import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** One line of an invoice; `id` is the public integer id. */
export const InvoiceLineEntity = defineEntity({
  name: 'InvoiceLine',
  tableName: 'invoice_line',
  indexes: [
    { name: 'invoice_line_invoice_idx', properties: ['invoice_id'] },
    { name: 'invoice_line_organization_subscription_idx', properties: ['organization_id', 'subscription_id'] },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    organization_id: p.uuid(),
    invoice_id: p.uuid(),
    account_id: p.uuid(),
    account_code: p.string().length(128),
    description: p.text(),
    sku: p.string().length(128),
    vat_type: p.string().length(16),
    collect_vat: p.boolean(),
    date_from: p.string().length(10).nullable(),
    date_to: p.string().length(10).nullable(),
    price: p.decimal('string').precision(30).scale(12),
    quantity: p.decimal('string').precision(20).scale(6),
    subtotal: p.decimal('string').precision(20).scale(6),
    vat_rate: p.decimal('string').precision(7).scale(4),
    vat: p.decimal('string').precision(20).scale(6),
    total: p.decimal('string').precision(20).scale(6),
    currency: p.string().length(3),
    refund_of: p.bigint('number').nullable(),
    subscription_id: p.uuid().nullable(),
    terms_id: p.uuid().nullable(),
    product_id: p.uuid().nullable(),
    charge_id: p.uuid().nullable(),
    draft_invoice_line_id: p.uuid().nullable(),
    sort_weight: p.integer(),
    reference_person: p.string().length(128),
    account_reference_person: p.string().length(128),
    po_number: p.string().length(128),
    case_number: p.string().length(128),
    invoice_supplement: p.text().nullable(),
    custom_fields: p.json<Record<string, unknown>>(),
    pricing: p.json<Record<string, unknown>>(),
    created_at: p.datetime(),
  },
});

export type InvoiceLineRow = InferEntity<typeof InvoiceLineEntity>;
