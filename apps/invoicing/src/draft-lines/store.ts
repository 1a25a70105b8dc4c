import { AppError } from '@billing/errors';
import type { ChangeScope } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DraftInvoiceLineEntity, type DraftInvoiceLineRow } from '../db/entities/draft-invoice-line.entity.js';
import { publishDraftLineEvent } from '../events/draft-line-events.js';
import { draftLineView } from './view.js';

/**
 * Queries of draft lines. Every one is scoped to the organization, and sees only lines not yet
 * invoiced: an invoiced line is part of its invoice and no longer of the draft-line API.
 */

export const LINE_ORDER = [{ created_at: 'asc' }, { id: 'asc' }] as const;

/**
 * The organization's uninvoiced line, or 404 (also for another organization's). `lock`: FOR
 * UPDATE, so a change waits for an invoicing transaction holding the line and then finds it gone.
 */
export async function requireDraftLine(
  em: EntityManager,
  organizationId: string,
  uuid: string,
  lock = false,
): Promise<DraftInvoiceLineRow> {
  const row = await em.findOne(
    DraftInvoiceLineEntity,
    { organization_id: organizationId, id: uuid, invoiced_at: null },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!row) throw AppError.notFound();
  return row;
}

/**
 * The account's uninvoiced lines, oldest first, for an invoice: those waiting for the next renewal
 * invoice (`forNextRenewal`) or those for generate_invoice. `lock` (FOR UPDATE) when the lines are
 * about to be invoiced, so two invoicing transactions never take the same line; without it, for a
 * computed (upcoming) invoice.
 */
export function pendingDraftLines(
  em: EntityManager,
  organizationId: string,
  accountId: string,
  options: { forNextRenewal: boolean; lock: boolean },
): Promise<DraftInvoiceLineRow[]> {
  return em.find(
    DraftInvoiceLineEntity,
    {
      organization_id: organizationId,
      account_id: accountId,
      include_in_next_renewal_invoice: options.forNextRenewal,
      invoiced_at: null,
    },
    { orderBy: [...LINE_ORDER], ...(options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}) },
  );
}

/**
 * Marks locked lines as invoiced by `invoiceId`, in the change's transaction (flushed with it):
 * each line's version grows by one and draft_invoice_line.invoiced carries it as invoiced, so the
 * read models that list an account's draft lines drop it. A line is consumed once: one already
 * invoiced is an error, never re-invoiced.
 */
export function markDraftLinesInvoiced(scope: ChangeScope, rows: DraftInvoiceLineRow[], invoiceId: string): void {
  for (const row of rows) {
    if (row.invoiced_at) throw AppError.internal(`Draft invoice line ${row.id} is already invoiced.`);
    row.invoiced_at = scope.now;
    row.invoice_id = invoiceId;
    row.version += 1;
    publishDraftLineEvent(scope, 'draft_invoice_line.invoiced', draftLineView(row));
  }
}
