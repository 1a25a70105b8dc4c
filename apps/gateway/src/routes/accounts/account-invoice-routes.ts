import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineRoute, detailError, notFound, type Route } from '../../http/index.js';
import { presentInvoices } from '../invoices/invoice-embeds.js';
import { GenerateInvoiceBody, InvoiceSchema } from '../invoices/invoice-schemas.js';
import { findAccountByCode } from '../shared/account-lookup.js';
import { CodeParams } from '../shared/path-params.js';

const ACCOUNT = '/api/v1/accounts/{code}/';
const TAGS = ['invoices'];

/** The answer of upcoming-invoice when the account has nothing that renews (Stripe answers 404 too). */
export const NO_UPCOMING_INVOICE = 'The account has no upcoming invoice.';

/**
 * The account's invoicing actions (gaps.md §3). Both name the account by code (unknown or another
 * organization's: 404) and answer 200 (actions, gaps.md §1) with invoices in the detail view
 * without `pdf_base64` (`invoice_api_url` serves it).
 */
export function accountInvoiceRoutes(clients: ServiceClients): Route[] {
  const { invoicing } = clients;
  const accountOf = async (code: string) => {
    const account = await findAccountByCode(clients, code);
    if (!account) throw notFound();
    return account;
  };

  const generate = defineRoute({
    method: 'post',
    path: `${ACCOUNT}generate_invoice/`,
    aliases: [`${ACCOUNT}generate-invoice/`],
    operationId: 'generateAccountInvoice',
    summary: 'Invoice the account’s draft lines not waiting for the next renewal: one invoice per currency',
    description:
      'An unpaginated list of the invoices made (empty when there is nothing to invoice), without pdf_base64. Unset, collection_method and payment_terms are each the account’s default, else the organization’s.',
    tags: TAGS,
    params: CodeParams,
    body: GenerateInvoiceBody,
    response: { status: 200, schema: z.array(InvoiceSchema) },
    handler: async ({ params, body, req }) => {
      const account = await accountOf(params.code);
      const reply = await invoicing.call('generateInvoice', {
        account: account.uuid,
        collection_method: body.collection_method,
        payment_terms: body.payment_terms,
      });
      return presentInvoices(clients, req, reply.invoices, { known: [account] });
    },
  });

  const upcoming = defineRoute({
    method: 'post',
    path: `${ACCOUNT}upcoming-invoice/`,
    aliases: [`${ACCOUNT}upcoming_invoice/`],
    operationId: 'upcomingAccountInvoice',
    summary: 'The invoice the account’s next renewal would issue, computed and not stored',
    description: `uuid, invoice_number and invoice_api_url are null. 404 {"detail": "${NO_UPCOMING_INVOICE}"} when nothing renews. The body is ignored.`,
    tags: TAGS,
    params: CodeParams,
    response: { status: 200, schema: InvoiceSchema },
    handler: async ({ params, req }) => {
      const account = await accountOf(params.code);
      // The engine previews what the renewal would charge; invoicing prices it as it would issue it.
      const { charges } = await clients.subscriptions.call('previewRenewal', { account: account.uuid });
      const { invoice } = await invoicing.call('upcomingInvoice', { account: account.uuid, charges });
      if (!invoice) throw detailError(404, NO_UPCOMING_INVOICE);
      return (await presentInvoices(clients, req, [invoice], { known: [account] }))[0]!;
    },
  });

  return [generate, upcoming];
}
