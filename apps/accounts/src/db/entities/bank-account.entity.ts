import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A bank account of an organization (docs/api.md "Organizations"). `id` is the integer invoices
 * name in `pay_to_bank_account`; a removed account keeps its row (and id) for the invoices that
 * name it, and is never offered again.
 */
export const BankAccountEntity = defineEntity({
  name: 'BankAccount',
  tableName: 'bank_account',
  indexes: [{ name: 'bank_account_organization_idx', properties: ['organization_id'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    organization_id: p.uuid(),
    /** The invoices in this currency are paid to it; null: every currency without an account of its own. */
    currency: p.string().length(3).nullable(),
    iban: p.string().length(34),
    bic: p.string().length(11),
    /** Danish domestic: registration number (4 digits) and account number (up to 10 digits). */
    reg_number: p.string().length(4),
    account_number: p.string().length(10),
    created_at: p.datetime(),
    removed_at: p.datetime().nullable(),
  },
});

export type BankAccountRow = InferEntity<typeof BankAccountEntity>;
