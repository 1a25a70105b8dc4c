import { randomUUID } from 'node:crypto';
import { AppError } from '@billing/errors';
import { type CurrencyCode, formatAmount, isDecimalString, money } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { COLLECTION_METHODS } from '@billing/reference-data';
import { type ChangeScope, runChange } from '@billing/runtime';
import { CreditApplicationEntity } from '../db/entities/credit-application.entity.js';
import type { InvoiceRow } from '../db/entities/invoice.entity.js';
import { linesOf, openInvoicesOfSubscription, requireInvoice } from '../db/invoice-store.js';
import { invoiceViewWithLines } from '../db/invoice-view.js';
import { settledStatus } from '../domain/compose-invoice.js';
import { creditToApply } from '../domain/credit.js';
import type { InvoiceView } from '../domain/invoice-view.js';
import { kickbackUpdateProblem } from '../domain/kickback.js';
import { INVALID_DATE, isIsoDate, localDay } from '../domain/local-day.js';
import { announceNewInvoices } from './announce-invoices.js';
import type { InvoicingDeps } from './deps.js';
import { publishInvoiceChange } from './invoice-change.js';
import { addLines, createInvoiceRow, issueInvoice, queueInvoiceMail } from './issue-invoices.js';

/** Invoice actions refuse with a reason the gateway answers as `{"error": ...}` (gaps §1). */
const refused = (message: string) => AppError.refused('INVOICE_ACTION_REFUSED', message);

const change = <T>(deps: InvoicingDeps, context: RequestContext, fn: (scope: ChangeScope) => Promise<T>) =>
  runChange(deps, 'invoicing', context, fn);

/**
 * PATCH kickback_status (null clears it), refused while the organization's kickback feature is
 * off (domain kickbackUpdateProblem; the features are the organization's as accounts has them now,
 * asked before the transaction opens).
 */
export async function updateKickbackStatus(
  deps: InvoicingDeps,
  context: RequestContext,
  uuid: string,
  status: string | null,
): Promise<string | null> {
  const { features } = await deps.directory.seller(context);
  return change(deps, context, async (scope) => {
    const row = await requireInvoice(scope.em, scope.organizationId, uuid, true);
    const problem = kickbackUpdateProblem(features, status);
    if (problem?.kind === 'feature_off') throw refused(problem.message);
    if (problem?.kind === 'invalid_status') throw AppError.invalidField('kickback_status', problem.message);
    scope.em.assign(row, { kickback_status: status, updated_at: scope.now });
    scope.audit('invoice.kickback_status', 'invoice', row.id, { kickback_status: status });
    await publishInvoiceChange(scope, 'invoice.updated', row);
    return status;
  });
}

/** gaps §7 register-payment: the balance is paid on that date; the invoice becomes paid. */
export async function registerPayment(
  deps: InvoicingDeps,
  context: RequestContext,
  uuid: string,
  date: string,
): Promise<InvoiceView> {
  return change(deps, context, async (scope) => {
    const row = await requireInvoice(scope.em, scope.organizationId, uuid, true);
    if (!isIsoDate(date)) throw AppError.invalidField('registration_date', INVALID_DATE);
    if (row.is_credit_note) throw refused('A credit note cannot be paid.');
    if (row.status !== 'open') throw refused(`The invoice is ${row.status}; there is nothing to pay.`);
    scope.em.assign(row, { balance: '0', status: 'paid', paid_date: date, updated_at: scope.now });
    scope.audit('invoice.register_payment', 'invoice', row.id, { registration_date: date });
    return publishInvoiceChange(scope, 'invoice.paid', row);
  });
}

/**
 * gaps.md §11: the payments service charged the invoice's balance with a card (`payment` is its
 * attempt). Idempotent, because payments retries until it hears an answer: an invoice already
 * paid, or settled otherwise meanwhile (credited), answers as it is, unchanged.
 */
export async function settleCardPayment(
  deps: InvoicingDeps,
  context: RequestContext,
  uuid: string,
  payment: string,
  date: string,
): Promise<InvoiceView> {
  return change(deps, context, async (scope) => {
    const row = await requireInvoice(scope.em, scope.organizationId, uuid, true);
    if (!isIsoDate(date)) throw AppError.invalidField('paid_date', INVALID_DATE);
    if (row.status !== 'open' || row.is_credit_note) return invoiceViewWithLines(scope.em, row);
    scope.em.assign(row, { balance: '0', status: 'paid', paid_date: date, updated_at: scope.now });
    scope.audit('invoice.card_payment', 'invoice', row.id, { payment, paid_date: date });
    return publishInvoiceChange(scope, 'invoice.paid', row);
  });
}

/** gaps §7 change-collection-method: refused once the invoice is settled. */
export async function changeCollectionMethod(
  deps: InvoicingDeps,
  context: RequestContext,
  uuid: string,
  method: string,
): Promise<InvoiceView> {
  return change(deps, context, async (scope) => {
    const row = await requireInvoice(scope.em, scope.organizationId, uuid, true);
    if (!(COLLECTION_METHODS as readonly string[]).includes(method)) {
      throw AppError.invalidField('collection_method', `"${method}" is not a valid choice.`);
    }
    if (row.status !== 'open') throw refused(`The invoice is ${row.status}; its collection method cannot change.`);
    scope.em.assign(row, { collection_method: method, updated_at: scope.now });
    scope.audit('invoice.change_collection_method', 'invoice', row.id, { collection_method: method });
    return publishInvoiceChange(scope, 'invoice.updated', row);
  });
}

/** Moves `amount` of a credit note's credit to an invoice: both balances shrink; a zero balance is settled. */
function applyCredit(scope: ChangeScope, credit: InvoiceRow, target: InvoiceRow, amount: string): void {
  const currency = target.currency as CurrencyCode;
  const creditBalance = formatAmount(money(credit.balance).plus(amount), currency);
  const targetBalance = formatAmount(money(target.balance).minus(amount), currency);
  scope.em.assign(credit, {
    balance: creditBalance,
    status: settledStatus(creditBalance, 'credit'),
    updated_at: scope.now,
  });
  scope.em.assign(target, {
    balance: targetBalance,
    status: settledStatus(targetBalance, 'credit'),
    updated_at: scope.now,
  });
  scope.em.create(CreditApplicationEntity, {
    id: randomUUID(),
    organization_id: scope.organizationId,
    credit_note_id: credit.id,
    target_invoice_id: target.id,
    amount,
    created_at: scope.now,
  });
}

/**
 * POST apply-credit-note: the credit note's unused credit (its negative balance) pays `amount` of
 * the target invoice: same account and currency, never more than either balance; `amount` (null)
 * defaults to the credit note's balance, capped at the target's. Returns the credit note.
 */
export async function applyCreditNote(
  deps: InvoicingDeps,
  context: RequestContext,
  uuid: string,
  targetInvoice: string,
  requested: string | null,
): Promise<InvoiceView> {
  return change(deps, context, async (scope) => {
    const credit = await requireInvoice(scope.em, scope.organizationId, uuid, true);
    if (!credit.is_credit_note) throw refused('Only a credit note can be applied.');
    const target = await requireInvoice(scope.em, scope.organizationId, targetInvoice, true).catch(() => {
      throw refused('The target invoice does not exist.');
    });
    if (target.is_credit_note) throw refused('A credit note cannot be applied to a credit note.');
    if (target.account_id !== credit.account_id) throw refused('The target invoice belongs to another account.');
    if (target.currency !== credit.currency) throw refused('The target invoice is in another currency.');
    const available = money(credit.balance).negated();
    const open = money(target.balance);
    if (available.lte(0)) throw refused('The credit note has no credit left.');
    if (open.lte(0)) throw refused('The target invoice has nothing left to pay.');
    let amount = creditToApply(credit.balance, target.balance);
    if (requested !== null) {
      if (!isDecimalString(requested) || money(requested).lte(0)) {
        throw AppError.invalidField('amount', 'A valid positive number is required.');
      }
      amount = money(requested);
      if (amount.gt(available)) throw refused('The amount is more than the credit note has left.');
      if (amount.gt(open)) throw refused("The amount is more than the target invoice's balance.");
    }
    applyCredit(scope, credit, target, formatAmount(amount, target.currency as CurrencyCode));
    scope.audit('invoice.apply_credit_note', 'invoice', credit.id, {
      target_invoice: target.id,
      amount: amount.toFixed(),
    });
    await publishInvoiceChange(scope, 'invoice.credited', target);
    return publishInvoiceChange(scope, 'invoice.updated', credit);
  });
}

/**
 * POST credit: a credit note for the invoice's full balance (every line reversed, refund_of the
 * line), issued and applied to the invoice at once: both end `credited`. Only an invoice whose
 * whole total is still open can be credited this way.
 */
export async function creditInvoice(deps: InvoicingDeps, context: RequestContext, uuid: string): Promise<InvoiceView> {
  return change(deps, context, async (scope) => {
    const invoice = await requireInvoice(scope.em, scope.organizationId, uuid, true);
    if (invoice.is_credit_note) throw refused('A credit note cannot be credited.');
    if (invoice.status !== 'open') throw refused(`The invoice is ${invoice.status}; there is nothing to credit.`);
    if (!money(invoice.balance).eq(money(invoice.total))) {
      throw refused('Part of the invoice is settled; apply a credit note for the rest instead.');
    }
    const [seller, buyer] = await Promise.all([
      deps.directory.seller(context),
      deps.directory.buyer(context, invoice.account_id),
    ]);
    // Dated today where the organization is, but never before the invoice it credits.
    const today = localDay(scope.now, seller.time_zone);
    const noteId = randomUUID();
    await announceNewInvoices(scope, deps.directory, context, invoice.account_id, [noteId]);
    const note = createInvoiceRow(scope, {
      id: noteId,
      // The parties as the credited invoice shows them, so the two documents match.
      buyer: { ...buyer, party: invoice.buyer, language: invoice.language },
      seller: { ...seller, party: invoice.seller },
      date: invoice.date > today ? invoice.date : today,
      due_date: invoice.due_date,
      payment_terms: invoice.payment_terms,
      currency: invoice.currency as CurrencyCode,
      collection_method: invoice.collection_method,
      po_number: invoice.po_number,
      group_key: null,
      credit_note_for: invoice.id,
      bank_account: invoice.bank_account ?? null,
    });
    const lines = (await linesOf(scope.em, [invoice.id])).get(invoice.id) ?? [];
    await addLines(
      scope,
      note,
      lines.map((line) => ({
        description: line.description,
        sku: line.sku,
        vat_type: line.vat_type,
        collect_vat: line.collect_vat,
        date_from: line.date_from ?? null,
        date_to: line.date_to ?? null,
        price: line.price,
        quantity: line.quantity,
        subtotal: formatAmount(money(line.subtotal).negated(), invoice.currency as CurrencyCode),
        subscription: line.subscription_id ?? null,
        terms: line.terms_id ?? null,
        product_id: line.product_id ?? null,
        refund_of: line.id,
        pricing: line.pricing,
        reference_person: line.reference_person,
        account_reference_person: line.account_reference_person,
        po_number: line.po_number,
        case_number: line.case_number,
        invoice_supplement: line.invoice_supplement ?? null,
        custom_fields: line.custom_fields,
        // A reseller's credited line names the resold account, as the line it reverses does.
        account: { id: line.account_id, code: line.account_code },
      })),
    );
    await issueInvoice(scope, note, buyer.recipients);
    applyCredit(scope, note, invoice, invoice.balance);
    scope.audit('invoice.credit', 'invoice', invoice.id, { credit_note: note.id });
    await publishInvoiceChange(scope, 'invoice.credited', invoice);
    // The note was issued with its whole credit open; its credit is now used up.
    return publishInvoiceChange(scope, 'invoice.updated', note);
  });
}

/** POST send: the invoice e-mailed again to the account's recipients that receive invoices. */
export async function sendInvoice(deps: InvoicingDeps, context: RequestContext, uuid: string): Promise<string[]> {
  return change(deps, context, async (scope) => {
    const row = await requireInvoice(scope.em, scope.organizationId, uuid);
    const [seller, buyer] = await Promise.all([
      deps.directory.seller(context),
      deps.directory.buyer(context, row.account_id),
    ]);
    if (buyer.recipients.length === 0) throw refused('The account has no recipient that receives invoices.');
    // Replies go to the organization's e-mail as it is now (the document keeps the one it was made with).
    queueInvoiceMail(scope, row.id, buyer.recipients, seller.party.email);
    scope.audit('invoice.send', 'invoice', row.id, { recipients: buyer.recipients.map((r) => r.email) });
    return buyer.recipients.map((recipient) => recipient.email);
  });
}

/**
 * Applies a credit note to the open invoices holding lines of `subscriptionId` (oldest first) as
 * far as its credit goes: cancel_invalid credits the subscription's invoices in full (gaps §6).
 */
export async function creditSubscriptionInvoices(
  scope: ChangeScope,
  credit: InvoiceRow,
  subscriptionId: string,
): Promise<void> {
  const targets = await openInvoicesOfSubscription(scope.em, scope.organizationId, subscriptionId, credit.currency);
  let applied = false;
  for (const target of targets) {
    if (!money(credit.balance).isNegative()) break;
    const amount = creditToApply(credit.balance, target.balance);
    if (amount.isZero()) continue;
    applyCredit(scope, credit, target, formatAmount(amount, target.currency as CurrencyCode));
    await publishInvoiceChange(scope, 'invoice.credited', target);
    applied = true;
  }
  // The note was issued with its whole credit open: what it has left now.
  if (applied) await publishInvoiceChange(scope, 'invoice.updated', credit);
}
