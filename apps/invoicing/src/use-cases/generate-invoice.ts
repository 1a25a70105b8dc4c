import { randomUUID } from 'node:crypto';
import { effectivePaymentTerms } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { CurrencyCode } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { COLLECTION_METHODS } from '@billing/reference-data';
import { runChange } from '@billing/runtime';
import { pendingDraftLines } from '../db/draft-line-store.js';
import { draftInvoiceLineOf } from '../db/draft-line-view.js';
import { invoiceViewWithLines } from '../db/invoice-view.js';
import { dueDate } from '../domain/compose-invoice.js';
import { effectiveCollectionMethod } from '../domain/invoice-defaults.js';
import type { InvoiceView } from '../domain/invoice-view.js';
import { localDay } from '../domain/local-day.js';
import { announceNewInvoices } from './announce-invoices.js';
import type { InvoicingDeps } from './deps.js';
import { addLines, createInvoiceRow, issueInvoice } from './issue-invoices.js';
import { markDraftLinesInvoiced } from './mark-draft-lines-invoiced.js';

/** What generate_invoice is asked for: the account, and what it sets instead of the defaults. */
export interface GenerateInvoiceOptions {
  /** The account's uuid. */
  account: string;
  /** Unset or null: the account's default collection method, then the organization's. */
  collection_method?: string | null | undefined;
  /** Days; unset or null: the account's, then the organization's. */
  payment_terms?: number | null | undefined;
}

/**
 * gaps §3 generate_invoice: every draft line of the account not waiting for the next renewal,
 * one invoice per currency (oldest line first), issued now; [] when there is nothing to invoice.
 * A resold account's invoices are made out to its reseller.
 */
export async function generateInvoice(
  deps: InvoicingDeps,
  context: RequestContext,
  options: GenerateInvoiceOptions,
): Promise<InvoiceView[]> {
  const collectionMethod = options.collection_method ?? null;
  const paymentTerms = options.payment_terms ?? null;
  if (collectionMethod !== null && !(COLLECTION_METHODS as readonly string[]).includes(collectionMethod)) {
    throw AppError.invalidField('collection_method', `"${collectionMethod}" is not a valid choice.`);
  }
  if (paymentTerms !== null && (!Number.isInteger(paymentTerms) || paymentTerms < 0)) {
    throw AppError.invalidField('payment_terms', 'Ensure this value is greater than or equal to 0.');
  }
  const [seller, account] = await Promise.all([
    deps.directory.seller(context),
    deps.directory.buyer(context, options.account),
  ]);
  // gaps.md §3: a resold account's lines are invoiced to its reseller (now, as asked), each naming the account.
  const buyer = account.reseller ? await deps.directory.buyer(context, account.reseller) : account;
  const lineAccount = account.reseller ? { account: { id: account.account_id, code: account.code } } : {};
  return runChange(deps, 'invoicing', context, async (scope) => {
    const drafts = await pendingDraftLines(scope.em, scope.organizationId, account.account_id, {
      forNextRenewal: false,
      lock: true,
    });
    const currencies = [...new Set(drafts.map((row) => row.currency))];
    const invoiceIds = currencies.map(() => randomUUID());
    await announceNewInvoices(scope, deps.directory, context, buyer.account_id, invoiceIds);
    const date = localDay(scope.now, seller.time_zone);
    const terms = effectivePaymentTerms(paymentTerms, buyer.payment_terms, seller.default_payment_terms);
    const invoices: InvoiceView[] = [];
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
          collectionMethod,
          buyer.collection_method,
          seller.default_collection_method,
        ),
        po_number: ofCurrency[0]?.po_number ?? '',
        group_key: null,
      });
      await addLines(
        scope,
        invoice,
        ofCurrency.map((row) => ({ ...draftInvoiceLineOf(row), ...lineAccount })),
      );
      markDraftLinesInvoiced(scope, ofCurrency, invoice.id);
      await issueInvoice(scope, invoice, buyer.recipients);
      invoices.push(await invoiceViewWithLines(scope.em, invoice));
    }
    scope.audit('account.generate_invoice', 'account', account.account_id, { invoices: invoices.map((i) => i.uuid) });
    return invoices;
  });
}
