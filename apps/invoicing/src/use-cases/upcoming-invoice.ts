import { effectivePaymentTerms } from '@billing/domain-kit';
import type { CurrencyCode } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { pendingDraftLines } from '../db/draft-line-store.js';
import { draftInvoiceLineOf } from '../db/draft-line-view.js';
import { payToBankAccount } from '../domain/bank-account.js';
import { chargeLineSources } from '../domain/charge-lines.js';
import { composeInvoice, dueDate } from '../domain/compose-invoice.js';
import { presentExact } from '../domain/decimal-text.js';
import type { InvoiceLineInput } from '../domain/invoice-line-input.js';
import type { InvoiceView } from '../domain/invoice-view.js';
import { documentLanguage } from '../domain/language/texts.js';
import { localDay } from '../domain/local-day.js';
import type { ReceivedCharge } from '../domain/received-charge.js';
import { resellerInvoicePlan } from '../domain/reseller-invoice.js';
import type { InvoicingDeps } from './deps.js';

/**
 * gaps §3 upcoming-invoice: what the account's next renewal would invoice (the engine's preview
 * charges in the first charge's currency, plus the draft lines waiting for that invoice), with VAT
 * and totals exactly as issuing would compute them; nothing is stored, so no uuid and no number.
 * A resold account's preview is made out to its reseller, dated the collection day, its lines
 * naming the account (only this account's lines: the reseller's invoice may collect others').
 */
export async function upcomingInvoice(
  deps: InvoicingDeps,
  context: RequestContext,
  accountId: string,
  charges: readonly ReceivedCharge[],
): Promise<InvoiceView | null> {
  const organizationId = requireOrganization(context);
  const first = charges[0];
  if (!first) return null;
  const [seller, account] = await Promise.all([
    deps.directory.seller(context),
    deps.directory.buyer(context, accountId),
  ]);
  // gaps.md §3: a resold account's lines go to its reseller's invoice of their collection day.
  const buyer = account.reseller ? await deps.directory.buyer(context, account.reseller) : account;
  const currency = first.currency as CurrencyCode;
  const chargeDay = localDay(first.due_at ?? deps.clock.now(), seller.time_zone);
  const resold = account.reseller ? resellerInvoicePlan(first, account, buyer, seller, chargeDay) : null;
  const date = resold?.date ?? chargeDay;
  const paymentTerms =
    resold?.payment_terms ??
    effectivePaymentTerms(first.payment_terms, buyer.payment_terms, seller.default_payment_terms);
  const bankAccount = payToBankAccount(seller.bank_accounts, currency);
  const drafts = (
    await pendingDraftLines(deps.orm.em.fork(), organizationId, accountId, { forNextRenewal: true, lock: false })
  ).filter((row) => row.currency === currency);
  const inputs: InvoiceLineInput[] = [
    ...charges
      .filter((charge) => charge.currency === currency)
      .flatMap((charge) => chargeLineSources(charge, account.invoice_note, documentLanguage(buyer.language))),
    ...drafts.map(draftInvoiceLineOf),
  ];
  const { lines, totals } = composeInvoice(
    inputs,
    {
      seller_country: seller.party.country,
      buyer_country: buyer.party.country,
      buyer_vat_number: buyer.party.vat_number || null,
    },
    currency,
  );
  return {
    uuid: '',
    invoice_number: null,
    external_invoice_number: '',
    account: buyer.account_id,
    account_code: buyer.code,
    pay_to_bank_account: bankAccount?.id ?? null,
    date,
    due_date: dueDate(date, paymentTerms),
    currency,
    status: 'upcoming',
    kickback_status: null,
    collection_method: resold?.collection_method ?? first.collection_method,
    total: totals.total,
    subtotal: totals.subtotal,
    vat: totals.vat,
    balance: totals.total,
    imported: false,
    import_source: '',
    lines: lines.map((line, index) => {
      const input = inputs[index]!;
      return {
        id: '0',
        invoice: '',
        account: accountId,
        account_code: account.code,
        description: input.description,
        sku: input.sku,
        vat_type: input.vat_type,
        collect_vat: input.collect_vat,
        date_from: input.date_from,
        date_to: input.date_to,
        price: presentExact(input.price),
        quantity: presentExact(input.quantity),
        subtotal: input.subtotal,
        vat: line.vat,
        total: line.total,
        currency,
        imported_line: false,
        refund_of: null,
        subscription: input.subscription ?? null,
        terms: input.terms ?? null,
        sort_weight: index + 1,
        draft_invoice_line_pk: input.draft_invoice_line_id ?? null,
        product_id: input.product_id ?? null,
        reference_person: input.reference_person ?? '',
        account_reference_person: input.account_reference_person ?? '',
        po_number: input.po_number ?? '',
        case_number: input.case_number ?? '',
        invoice_supplement: input.invoice_supplement ?? null,
        custom_fields: input.custom_fields ?? {},
        vat_rate: line.vat_rate,
        pricing: input.pricing ?? {},
      };
    }),
    created_date: null,
    last_modified_date: null,
    is_credit_note: false,
    credit_note_for: null,
    payment_terms: paymentTerms,
    vat_breakdown: totals.vat_breakdown,
    reverse_charge: totals.reverse_charge,
    vat_note: totals.vat_note,
    seller: seller.party,
    buyer: buyer.party,
    language: buyer.language,
    po_number: resold?.po_number ?? first.po_number,
    bank_account: bankAccount,
    // Computed, never stored or published.
    version: 0,
    einvoice_status: null,
  };
}
