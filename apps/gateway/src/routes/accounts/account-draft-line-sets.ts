import type { accountsV1 } from '@billing/proto';
import { type DraftLineRepresentation, presentDraftLine } from '../draft-invoice-lines/draft-line-representation.js';

/**
 * The `draftinvoiceline_set` of an account: its draft lines not invoiced yet, oldest first, each the
 * whole draft line object, as the accounts service sends them with the account (its read model of
 * the invoicing service's draft line events).
 */
export function presentDraftLineSet(account: accountsV1.Account): DraftLineRepresentation[] {
  return account.draft_lines.map((line) => presentDraftLine(line, account.code));
}
