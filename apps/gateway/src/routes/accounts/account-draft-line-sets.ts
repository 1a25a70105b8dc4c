import type { IncomingHttpHeaders } from 'node:http';
import type { accountsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { parseFieldsHeader } from '../../http/index.js';
import { type DraftLineRepresentation, presentDraftLine } from '../draft-invoice-lines/draft-line-representation.js';

type SetClients = Pick<ServiceClients, 'invoicing'>;

/** Whether a read of accounts must fill `draftinvoiceline_set` (not when `Fields` leaves it out). */
export function wantsDraftLineSet(headers: IncomingHttpHeaders): boolean {
  const fields = parseFieldsHeader(typeof headers.fields === 'string' ? headers.fields : undefined);
  return fields === null || fields.has('draftinvoiceline_set');
}

/**
 * The `draftinvoiceline_set` of each account: every draft line of the accounts, oldest first, each
 * the whole draft line object. One ListDraftLines call (unpaged) covers all the accounts of a page.
 */
export async function loadDraftLineSets(
  clients: SetClients,
  accounts: readonly accountsV1.Account[],
): Promise<Map<string, DraftLineRepresentation[]>> {
  const sets = new Map<string, DraftLineRepresentation[]>(accounts.map((account) => [account.uuid, []]));
  if (accounts.length === 0) return sets;
  const codes = new Map(accounts.map((account) => [account.uuid, account.code]));
  const reply = await clients.invoicing.call('listDraftLines', {
    page: { page: 1, page_size: 0, ordering: 'created_date' },
    all: true,
    accounts: [...codes.keys()],
  });
  for (const line of reply.lines) {
    sets.get(line.account)?.push(presentDraftLine(line, codes.get(line.account) ?? null));
  }
  return sets;
}
