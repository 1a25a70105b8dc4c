import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, HttpResponse, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { UuidParams } from '../shared/path-params.js';
import {
  INVOICE_PATH,
  INVOICES_PATH,
  kickbackEnabled,
  presentInvoiceList,
  presentInvoiceWithPdf,
} from './invoice-embeds.js';
import { resolveInvoiceFilter } from './invoice-list-filter.js';
import { presentKickback, presentVatBillingPeriod } from './invoice-representation.js';
import {
  DEFAULT_INVOICE_ORDERING,
  INVOICE_ORDERING,
  InvoiceFilters,
  InvoiceListItemSchema,
  InvoiceSchema,
  KickbackBody,
  KickbackSchema,
  VatBillingPeriodSchema,
} from './invoice-schemas.js';

const TAGS = ['invoices'];

/**
 * api-spec "Invoices" and gaps.md §7: the reads and the kickback update. The invoicing service
 * names accounts by uuid; the gateway resolves account codes and embeds the account
 * (docs/api.md "Invoices").
 */
export function invoiceRoutes(clients: ServiceClients): Route[] {
  const { invoicing } = clients;

  const list = defineListRoute({
    path: INVOICES_PATH,
    operationId: 'listInvoices',
    summary: 'List invoices (totals as numbers)',
    description:
      'Newest invoice number first by default. account and account_not are account codes (an unknown account: empty list, resp. no exclusion); search matches the invoice number or the account’s name or code.',
    tags: TAGS,
    item: InvoiceListItemSchema,
    query: InvoiceFilters,
    ordering: INVOICE_ORDERING,
    handler: async ({ query, page }) => {
      const filter = await resolveInvoiceFilter(clients, query);
      if (filter === null) return { count: 0, results: [] };
      const reply = await invoicing.call('listInvoices', {
        page: pageOf(page, DEFAULT_INVOICE_ORDERING),
        filter,
      });
      return { count: reply.count, results: await presentInvoiceList(clients, reply.invoices) };
    },
  });

  const vatBillingPeriods = defineRoute({
    method: 'get',
    path: `${INVOICES_PATH}available-vat-billing-periods/`,
    aliases: [`${INVOICES_PATH}available_vat_billing_periods/`],
    operationId: 'listAvailableVatBillingPeriods',
    summary: 'The VAT billing periods that have invoices (a plain list, not an envelope)',
    tags: TAGS,
    response: { status: 200, schema: z.array(VatBillingPeriodSchema) },
    handler: async () => (await invoicing.call('listVatBillingPeriods', {})).periods.map(presentVatBillingPeriod),
  });

  const get = defineRoute({
    method: 'get',
    path: INVOICE_PATH,
    operationId: 'getInvoice',
    summary: 'One invoice with its lines and PDF (totals as decimal strings)',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: InvoiceSchema },
    handler: async ({ params, req }) => presentInvoiceWithPdf(clients, req, params.uuid),
  });

  const updateKickback = defineRoute({
    method: 'patch',
    path: INVOICE_PATH,
    operationId: 'updateInvoiceKickbackStatus',
    summary: 'Set kickback_status (commission_pending, commission_paid or null)',
    description:
      'Only kickback_status is writable. Refused with 400 {"error"} when the organization’s kickback feature is off. A body without kickback_status changes nothing and answers the current value (null while the feature is off).',
    tags: TAGS,
    params: UuidParams,
    body: KickbackBody,
    refusalBodyKey: 'error',
    response: { status: 200, schema: KickbackSchema },
    handler: async ({ params, body }) => {
      if (!('kickback_status' in body)) {
        const [{ invoice }, enabled] = await Promise.all([
          invoicing.call('getInvoice', { uuid: params.uuid, with_pdf: false }),
          kickbackEnabled(clients),
        ]);
        return presentKickback(invoice!.kickback_status, enabled);
      }
      // Invoicing refuses while the feature is off: an answer means it is on, so the status shows.
      const reply = await invoicing.call('updateKickbackStatus', {
        uuid: params.uuid,
        kickback_status: body.kickback_status ?? undefined,
      });
      return presentKickback(reply.kickback_status, true);
    },
  });

  const ubl = defineRoute({
    method: 'get',
    path: `${INVOICE_PATH}ubl/`,
    operationId: 'getInvoiceUbl',
    summary: 'The e-invoice: Peppol BIS Billing 3.0 UBL (application/xml)',
    description:
      'An Invoice or, for a credit note, a CreditNote document (EN 16931). 404 for an invoice that is not an e-invoice (its account did not use ean_invoicing, with an endpoint, when it was made), as for an invoice of another organization.',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, description: 'application/xml; charset=utf-8' },
    handler: async ({ params }) => {
      const { xml } = await invoicing.call('getInvoiceUbl', { uuid: params.uuid });
      return new HttpResponse(200, xml, { contentType: 'application/xml; charset=utf-8' });
    },
  });

  return [list, vatBillingPeriods, get, updateKickback, ubl];
}
