import type { accountsV1, invoicingV1 } from '@billing/proto';
import type { Request } from 'express';
import type { ServiceClients } from '../../clients/service-clients.js';
import { absoluteRequestUrl } from '../../http/index.js';
import { loadAccounts } from '../shared/account-lookup.js';
import { presentInvoice, presentInvoiceLine, presentInvoiceListItem } from './invoice-representation.js';

type EmbedClients = Pick<ServiceClients, 'accounts' | 'identity'>;

/** The organization feature that shows and allows kickback_status (gaps.md §7). */
export const KICKBACK_FEATURE = 'kickback';

/** Whether the caller's organization has the kickback feature on (one GetOrganization call). */
export async function kickbackEnabled(clients: Pick<ServiceClients, 'identity'>): Promise<boolean> {
  const { organization } = await clients.identity.call('getOrganization', {});
  return organization?.features.includes(KICKBACK_FEATURE) ?? false;
}

export const INVOICES_PATH = '/api/v1/invoices/';
export const INVOICE_PATH = `${INVOICES_PATH}{uuid}/`;

/**
 * `invoice_api_url`: the absolute URL of the invoice's detail endpoint, built from the request's
 * scheme and host as the pagination links are (X-Forwarded-* only with TRUST_PROXY).
 */
export function invoiceApiUrl(req: Request, uuid: string): string | null {
  if (uuid === '') return null;
  return new URL(`${INVOICES_PATH}${uuid}/`, absoluteRequestUrl(req).origin).toString();
}

/** A page of the invoice list, in the list view. */
export async function presentInvoiceList(clients: EmbedClients, invoices: readonly invoicingV1.Invoice[]) {
  const [accounts, kickback] = await Promise.all([
    loadAccounts(
      clients,
      invoices.map((invoice) => invoice.account),
    ),
    invoices.length > 0 ? kickbackEnabled(clients) : false,
  ]);
  return invoices.map((invoice) => presentInvoiceListItem(invoice, { accounts, kickbackEnabled: kickback }));
}

/** Invoices in the detail view; `pdfs` by invoice uuid for the answers that carry them. */
export async function presentInvoices(
  clients: EmbedClients,
  req: Request,
  invoices: readonly invoicingV1.Invoice[],
  options: { pdfs?: ReadonlyMap<string, Uint8Array>; known?: readonly accountsV1.AccountSummary[] } = {},
) {
  const [accounts, kickback] = await Promise.all([
    loadAccounts(
      clients,
      invoices.map((invoice) => invoice.account),
      options.known,
    ),
    invoices.length > 0 ? kickbackEnabled(clients) : false,
  ]);
  return invoices.map((invoice) =>
    presentInvoice(
      invoice,
      { accounts, kickbackEnabled: kickback },
      {
        apiUrl: invoiceApiUrl(req, invoice.uuid),
        ...(options.pdfs?.has(invoice.uuid) ? { pdf: options.pdfs.get(invoice.uuid)! } : {}),
      },
    ),
  );
}

/**
 * One invoice read afresh with its PDF: the detail endpoint and every action answering with an
 * invoice (DRF returns the detail serializer after an action).
 */
export async function presentInvoiceWithPdf(
  clients: EmbedClients & Pick<ServiceClients, 'invoicing'>,
  req: Request,
  uuid: string,
) {
  const reply = await clients.invoicing.call('getInvoice', { uuid, with_pdf: true });
  const invoice = reply.invoice!;
  return (await presentInvoices(clients, req, [invoice], { pdfs: new Map([[invoice.uuid, reply.pdf]]) }))[0]!;
}

/** Invoice lines with their accounts' current codes. */
export async function presentInvoiceLines(
  clients: Pick<ServiceClients, 'accounts'>,
  lines: readonly invoicingV1.InvoiceLine[],
) {
  const accounts = await loadAccounts(
    clients,
    lines.map((line) => line.account),
  );
  return lines.map((line) => presentInvoiceLine(line, accounts));
}
