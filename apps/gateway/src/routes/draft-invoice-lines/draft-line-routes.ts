import type { accountsV1, invoicingV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route, validationFailed } from '../../http/index.js';
import { catalogInput } from '../catalog/catalog-representation.js';
import { accountDoesNotExist, findAccountByCode, loadAccounts } from '../shared/account-lookup.js';
import { pageOf } from '../shared/page-of.js';
import { UuidParams } from '../shared/path-params.js';
import { presentDraftLine } from './draft-line-representation.js';
import {
  DRAFT_LINE_ORDERING,
  DraftLineBody,
  DraftLineFilters,
  DraftLinePatchBody,
  DraftLineSchema,
} from './draft-line-schemas.js';

const LINES = '/api/v1/draftinvoicelines/';
const LINE = `${LINES}{uuid}/`;
const TAGS = ['draft invoice lines'];

type Clients = Pick<ServiceClients, 'accounts' | 'invoicing'>;

/** The account a write names by code; 400 on `account` when the organization has none of that code. */
async function resolveAccount(clients: Clients, code: string): Promise<accountsV1.AccountSummary> {
  const account = await findAccountByCode(clients, code);
  if (!account) throw validationFailed({ account: [accountDoesNotExist(code)] });
  return account;
}

/** A write body as the service takes it: the account's uuid instead of its code, sent fields named. */
async function lineInput(clients: Clients, body: Record<string, unknown>) {
  const account = typeof body.account === 'string' ? await resolveAccount(clients, body.account) : undefined;
  const { input, present_fields } = catalogInput<invoicingV1.DraftLineInput>(
    account ? { ...body, account: account.uuid } : body,
  );
  return { line: input, present_fields, known: account ? [account] : [] };
}

/** Draft lines with their accounts' codes, one GetAccountSummaries call for them all. */
async function presentDraftLines(
  clients: Clients,
  lines: readonly invoicingV1.DraftLine[],
  known: readonly accountsV1.AccountSummary[] = [],
) {
  const accounts = await loadAccounts(
    clients,
    lines.map((line) => line.account),
    known,
  );
  return lines.map((line) => presentDraftLine(line, accounts.get(line.account)?.code ?? null));
}

/**
 * Draft invoice lines (gaps.md §3), served by the invoicing service, which names accounts by uuid:
 * the gateway resolves `account` codes (docs/api.md "Draft invoice lines"). The service applies
 * every default, the organization's base currency of a line written without currency included.
 */
export function draftLineRoutes(clients: ServiceClients): Route[] {
  const { invoicing } = clients;
  const present = async (line: invoicingV1.DraftLine | undefined, known: readonly accountsV1.AccountSummary[] = []) =>
    (await presentDraftLines(clients, [line!], known))[0]!;

  const list = defineListRoute({
    path: LINES,
    operationId: 'listDraftInvoiceLines',
    summary: 'List draft invoice lines',
    description: 'Oldest first by default. account is an account code (unknown: empty list).',
    tags: TAGS,
    item: DraftLineSchema,
    query: DraftLineFilters,
    ordering: DRAFT_LINE_ORDERING,
    handler: async ({ query, page }) => {
      let account: accountsV1.AccountSummary | undefined;
      if (query.account !== undefined) {
        account = await findAccountByCode(clients, query.account);
        if (!account) return { count: 0, results: [] };
      }
      const reply = await invoicing.call('listDraftLines', {
        page: pageOf(page, 'created_date'),
        account: account?.uuid,
      });
      return { count: reply.count, results: await presentDraftLines(clients, reply.lines, account ? [account] : []) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path: LINES,
    operationId: 'createDraftInvoiceLine',
    summary: 'Create a draft invoice line',
    description:
      'Required: account (code), description, vat_type; currency defaults to the organization’s base currency. At most one of the three discounts. Lines with include_in_next_renewal_invoice join the account’s next renewal invoice; the others wait for POST /accounts/{code}/generate_invoice/.',
    tags: TAGS,
    body: DraftLineBody,
    response: { status: 201, schema: DraftLineSchema },
    handler: async ({ body }) => {
      const { known, ...request } = await lineInput(clients, body);
      return present((await invoicing.call('createDraftLine', request)).line, known);
    },
  });

  const get = defineRoute({
    method: 'get',
    path: LINE,
    operationId: 'getDraftInvoiceLine',
    summary: 'One draft invoice line',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: DraftLineSchema },
    handler: async ({ params }) => present((await invoicing.call('getDraftLine', { uuid: params.uuid })).line),
  });

  const update = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: LINE,
      operationId: method === 'put' ? 'replaceDraftInvoiceLine' : 'updateDraftInvoiceLine',
      summary:
        method === 'put'
          ? 'Replace a draft invoice line (required fields as on create)'
          : 'Update some fields of a draft invoice line',
      description:
        method === 'put'
          ? 'Fields not sent go back to their defaults; currency left out is the organization’s base currency.'
          : 'Changes only the fields sent; currency left out stays the line’s.',
      tags: TAGS,
      params: UuidParams,
      body: method === 'put' ? DraftLineBody : DraftLinePatchBody,
      response: { status: 200, schema: DraftLineSchema },
      handler: async ({ params, body }) => {
        const { known, ...request } = await lineInput(clients, body);
        const reply = await invoicing.call('updateDraftLine', {
          uuid: params.uuid,
          ...request,
          replace: method === 'put',
        });
        return present(reply.line, known);
      },
    });

  const remove = defineRoute({
    method: 'delete',
    path: LINE,
    operationId: 'deleteDraftInvoiceLine',
    summary: 'Delete a draft invoice line',
    tags: TAGS,
    params: UuidParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      await invoicing.call('deleteDraftLine', { uuid: params.uuid });
      return undefined;
    },
  });

  return [list, create, get, update('put'), update('patch'), remove];
}
