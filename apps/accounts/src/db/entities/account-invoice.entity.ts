import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Read model: the latest state of each invoice and credit note (owned by the invoicing service) as
 * its `invoicing.invoice.*` events told it, one row per invoice; before its first event, the
 * invoice as invoicing announced it (status `announced`, version 0, balance 0) just before
 * committing it. The account list's `balance` filter and the "no delete while invoiced" rule are
 * derived from it by query.
 */
export const AccountInvoiceEntity = defineEntity({
  name: 'AccountInvoice',
  tableName: 'account_invoice',
  indexes: [
    { name: 'account_invoice_organization_account_idx', properties: ['organization_id', 'account_id'] },
    { name: 'account_invoice_organization_status_idx', properties: ['organization_id', 'status'] },
  ],
  properties: {
    /** The invoice's uuid. */
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    /** open, paid, credited; `announced` until the first state arrives. */
    status: p.string().length(16),
    /** Null while announced. */
    currency: p.string().length(3).nullable(),
    /** Exact, as invoicing states it: what is still owed (negative: a credit note's unused credit). */
    balance: p.decimal('string').precision(20).scale(6),
    /** The stored state's Invoice.version: only a strictly greater one replaces it. */
    version: p.integer(),
    /** When this service last wrote the row. */
    updated_at: p.datetime(),
  },
});

export type AccountInvoiceRow = InferEntity<typeof AccountInvoiceEntity>;
