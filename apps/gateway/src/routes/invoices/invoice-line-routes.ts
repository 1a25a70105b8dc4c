import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { presentInvoiceLines } from './invoice-embeds.js';
import { InvoiceLineFilters, InvoiceLineSchema } from './invoice-schemas.js';

const LINES = '/api/v1/invoicelines/';
const TAGS = ['invoices'];
/** Line ids are positive integers (int64); anything else names no line: 404. */
const IdParams = z.object({ id: z.string().regex(/^[1-9]\d{0,17}$/) });

/**
 * Invoice lines (gaps.md §7): read-only, as the invoices they belong to. Filters: `invoice` (uuid),
 * `account` (an account code; unknown: empty list), `subscription` (uuid).
 */
export function invoiceLineRoutes(clients: ServiceClients): Route[] {
  const { invoicing, accounts } = clients;

  const list = defineListRoute({
    path: LINES,
    operationId: 'listInvoiceLines',
    summary: 'List invoice lines',
    description:
      'Oldest first (by id). Only lines of issued invoices. account is an account code (unknown: empty list).',
    tags: TAGS,
    item: InvoiceLineSchema,
    query: InvoiceLineFilters,
    handler: async ({ query, page }) => {
      let account: string | undefined;
      if (query.account !== undefined) {
        const { uuids } = await accounts.call('listAccountUuids', { filter: { code: query.account } });
        if (uuids.length === 0) return { count: 0, results: [] };
        account = uuids[0];
      }
      const reply = await invoicing.call('listInvoiceLines', {
        page: pageOf(page),
        filter: { invoice: query.invoice, account, subscription: query.subscription },
      });
      return { count: reply.count, results: await presentInvoiceLines(clients, reply.lines) };
    },
  });

  const get = defineRoute({
    method: 'get',
    path: `${LINES}{id}/`,
    operationId: 'getInvoiceLine',
    summary: 'One invoice line',
    tags: TAGS,
    params: IdParams,
    response: { status: 200, schema: InvoiceLineSchema },
    handler: async ({ params }) => {
      const { line } = await invoicing.call('getInvoiceLine', { id: params.id });
      return (await presentInvoiceLines(clients, [line!]))[0]!;
    },
  });

  return [list, get];
}
