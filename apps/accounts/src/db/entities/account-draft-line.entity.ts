import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Read model: the latest state of each draft invoice line (owned by the invoicing service) as its
 * `draft_invoice_line.*` events told it, one row per line, so account reads can embed the lines
 * not invoiced yet without asking invoicing.
 */
export const AccountDraftLineEntity = defineEntity({
  name: 'AccountDraftLine',
  tableName: 'account_draft_line',
  indexes: [{ name: 'account_draft_line_organization_account_idx', properties: ['organization_id', 'account_id'] }],
  properties: {
    /** The line's uuid. */
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    /** The stored state's DraftLine.version: orders the states whichever path delivers them. */
    version: p.integer(),
    /** The line's created_date: account reads list lines oldest first. */
    created_date: p.datetime(),
    /** The encoded billing.invoicing.v1.DraftLine of the stored state, served as is by account reads. */
    snapshot: p.blob(),
    /**
     * Deleted or invoiced: no longer on the account. The row stays as a tombstone, so that an
     * older state arriving late (a redelivered `created`) cannot bring the line back.
     */
    removed: p.boolean().default(false),
    /** When this service last applied an event to the row. */
    updated_at: p.datetime(),
  },
});

export type AccountDraftLineRow = InferEntity<typeof AccountDraftLineEntity>;
