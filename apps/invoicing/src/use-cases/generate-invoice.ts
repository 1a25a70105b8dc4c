import { randomUUID } from 'node:crypto';
import { effectivePaymentTerms } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { CurrencyCode } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import type { invoicingV1 } from '@billing/proto';
import { COLLECTION_METHODS } from '@billing/reference-data';
import { runChange } from '@billing/runtime';
import { pendingDraftLines } from '../db/draft-line-store.js';
import { draftInvoiceLineOf } from '../db/draft-line-view.js';
import { linesOf } from '../db/invoice-store.js';
import { dueDate } from '../domain/compose-invoice.js';
import { effectiveCollectionMethod } from '../domain/invoice-defaults.js';
import { localDay } from '../domain/local-day.js';
import { invoiceMessage } from '../grpc/invoice-mapper.js';
import { announceNewInvoices } from './announce-invoices.js';
import type { InvoicingDeps } from './deps.js';
import { addLines, createInvoiceRow, issueInvoice } from './issue-invoices.js';
import { markDraftLinesInvoiced } from './mark-draft-lines-invoiced.js';

/**
 * gaps §3 generate_invoice: every draft line of the account not waiting for the next renewal,
 * one invoice per currency (oldest line first), issued now; [] when there is nothing to invoice.
 */
export async function generateInvoice(
  deps: InvoicingDeps,
  context: RequestContext,
  request: invoicingV1.GenerateInvoiceRequest,
): Promise<invoicingV1.Invoice[]> {
  if (
    request.collection_method !== undefined &&
    !(COLLECTION_METHODS as readonly string[]).includes(request.collection_method)
  ) {
    throw AppError.invalidField('collection_method', `"${request.collection_method}" is not a valid choice.`);
  }
  if (request.payment_terms !== undefined && (!Number.isInteger(request.payment_terms) || request.payment_terms < 0)) {
    throw AppError.invalidField('payment_terms', 'Ensure this value is greater than or equal to 0.');
  }
  const [seller, buyer] = await Promise.all([
    deps.directory.seller(context),
    deps.directory.buyer(context, request.account),
  ]);
  return runChange(deps, 'invoicing', context, async (scope) => {
    const drafts = await pendingDraftLines(scope.em, scope.organizationId, buyer.account_id, {
      forNextRenewal: false,
      lock: true,
    });
    const currencies = [...new Set(drafts.map((row) => row.currency))];
    const invoiceIds = currencies.map(() => randomUUID());
    await announceNewInvoices(scope, deps.directory, context, buyer.account_id, invoiceIds);
    const date = localDay(scope.now, seller.time_zone);
    const terms = effectivePaymentTerms(request.payment_terms, buyer.payment_terms, seller.default_payment_terms);
    const invoices: invoicingV1.Invoice[] = [];
    for (const [index, currency] of currencies.entries()) {
      const ofCurrency = drafts.filter((row) => row.currency === currency);
      const invoice = createInvoiceRow(scope, {
        id: invoiceIds[index]!,
        buyer,
        seller,
        date,
        due_date: dueDate(date, terms),
        payment_terms: terms,
        currency: currency as CurrencyCode,
        collection_method: effectiveCollectionMethod(
          request.collection_method,
          buyer.collection_method,
          seller.default_collection_method,
        ),
        po_number: ofCurrency[0]?.po_number ?? '',
        group_key: null,
      });
      await addLines(scope, invoice, ofCurrency.map(draftInvoiceLineOf));
      markDraftLinesInvoiced(scope, ofCurrency, invoice.id);
      await issueInvoice(scope, invoice, buyer.recipients);
      invoices.push(invoiceMessage(invoice, (await linesOf(scope.em, [invoice.id])).get(invoice.id) ?? []));
    }
    scope.audit('account.generate_invoice', 'account', buyer.account_id, { invoices: invoices.map((i) => i.uuid) });
    return invoices;
  });
}
