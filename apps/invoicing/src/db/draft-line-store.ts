import { AppError } from '@billing/errors';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DraftInvoiceLineEntity, type DraftInvoiceLineRow } from './entities/draft-invoice-line.entity.js';

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
 * pendingDraftLines for the next renewal of several accounts at once, locked, by account (each
 * account's in LINE_ORDER). The rows are not tracked by the unit of work: the caller writes what it
 * changes with writeDraftLinesInvoiced (one statement for a batch).
 */
export async function pendingRenewalDraftLines(
  em: EntityManager,
  organizationId: string,
  accountIds: readonly string[],
): Promise<Map<string, DraftInvoiceLineRow[]>> {
  const byAccount = new Map<string, DraftInvoiceLineRow[]>();
  if (accountIds.length === 0) return byAccount;
  const rows = await em.find(
    DraftInvoiceLineEntity,
    {
      organization_id: organizationId,
      account_id: { $in: [...new Set(accountIds)] },
      include_in_next_renewal_invoice: true,
      invoiced_at: null,
    },
    { orderBy: [...LINE_ORDER], lockMode: LockMode.PESSIMISTIC_WRITE, disableIdentityMap: true },
  );
  for (const row of rows) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), row]);
  return byAccount;
}

/** Writes what markDraftLinesInvoiced set on untracked rows (invoiced_at, invoice_id, version), in one statement. */
export async function writeDraftLinesInvoiced(em: EntityManager, rows: readonly DraftInvoiceLineRow[]): Promise<void> {
  if (rows.length === 0) return;
  await em.execute(
    `update draft_invoice_line d set invoiced_at = r.invoiced_at, invoice_id = r.invoice_id, version = r.version
       from jsonb_to_recordset(?::jsonb) as r(id uuid, invoiced_at timestamptz, invoice_id uuid, version int)
      where d.id = r.id`,
    [
      JSON.stringify(
        rows.map(({ id, invoiced_at, invoice_id, version }) => ({ id, invoiced_at, invoice_id, version })),
      ),
    ],
  );
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
