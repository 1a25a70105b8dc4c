import { AppError } from '@billing/errors';
import type { ChangeScope } from '@billing/runtime';
import { draftLineView } from '../db/draft-line-view.js';
import type { DraftInvoiceLineRow } from '../db/entities/draft-invoice-line.entity.js';
import { publishDraftLineEvent } from '../events/draft-line-events.js';

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
