import { randomUUID } from 'node:crypto';
import { afterCommit } from '@billing/db';
import { effectivePaymentTerms } from '@billing/domain-kit';
import type { EventEnvelope } from '@billing/events';
import type { CurrencyCode } from '@billing/money';
import { changeScope } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pendingDraftLines } from '../db/draft-line-store.js';
import { draftInvoiceLineOf } from '../db/draft-line-view.js';
import { InvoiceEntity } from '../db/entities/invoice.entity.js';
import { InvoicedChargeEntity } from '../db/entities/invoiced-charge.entity.js';
import { chargeLineSources, groupKey } from '../domain/charge-lines.js';
import { dueDate } from '../domain/compose-invoice.js';
import { documentLanguage } from '../domain/language/texts.js';
import { localDay } from '../domain/local-day.js';
import type { ReceivedCharge } from '../domain/received-charge.js';
import { resellerInvoicePlan } from '../domain/reseller-invoice.js';
import { announceNewInvoices } from './announce-invoices.js';
import type { InvoicingDeps } from './deps.js';
import { creditSubscriptionInvoices } from './invoice-actions.js';
import { addLines, createInvoiceRow, issueInvoice, systemContext } from './issue-invoices.js';
import { markDraftLinesInvoiced } from './mark-draft-lines-invoiced.js';

/** How long a grouped renewal invoice waits for more lines of the same renewal before it is issued. */
export const GROUP_WINDOW_MS = 2_000;

/** Where a charge comes from: its organization and the request that made it (the trace of its invoice). */
export interface ChargeOrigin {
  organizationId: string;
  requestId: string;
  /** When the subscription engine made the charge (its event's occurred_at), if known. */
  occurredAt?: Date;
}

/**
 * One charge of the subscription engine becomes invoice lines, exactly once (the charge id is the
 * key of invoiced_charge, in the charge consumer's transaction `em` with its inbox row). Renewal charges
 * of group_on_invoice subscriptions join the pending invoice of their group (issued when the group
 * window has passed, or when the test clock asks); every other charge is its own invoice (a
 * credit note when negative), issued at once. A charge of an account that names a reseller goes to
 * the reseller's pending invoice of its collection day and group instead, each line naming the
 * resold account, issued once that day has ended (gaps.md §3, domain/reseller-invoice.ts). Draft
 * lines flagged include_in_next_renewal_invoice
 * join a renewal charge's invoice; their draft_invoice_line.invoiced events go to the read model
 * once the consumer's transaction commits.
 */
export async function invoiceCharge(
  deps: InvoicingDeps,
  em: EntityManager,
  charge: ReceivedCharge,
  origin: ChargeOrigin,
): Promise<void> {
  if (await em.findOne(InvoicedChargeEntity, { charge_id: charge.uuid })) return;
  const { organizationId } = origin;
  const context = systemContext(organizationId, origin.requestId);
  const [seller, account] = await Promise.all([
    deps.directory.seller(context),
    deps.directory.buyer(context, charge.account),
  ]);
  // gaps.md §3: every line of a resold account is invoiced to its reseller.
  const buyer = account.reseller ? await deps.directory.buyer(context, account.reseller) : account;
  const now = invoicedAt(seller.test_clock_time, origin.occurredAt, deps.clock.now());
  const published: EventEnvelope[] = [];
  const scope = changeScope(em, 'invoicing', organizationId, context, now, published);
  // The consumer's transaction is not a runChange: its invoice and draft line events are handed over here.
  const handOver = deps.committedEvents;
  if (handOver) {
    const settled = afterCommit(em, () => (published.length > 0 ? handOver(published, context) : Promise.resolve()));
    deps.handOvers?.track(settled);
  }

  const chargeDay = localDay(charge.due_at ?? now, seller.time_zone);
  const resold = account.reseller ? resellerInvoicePlan(charge, account, buyer, seller, chargeDay) : null;
  const date = resold?.date ?? chargeDay;
  const paymentTerms =
    resold?.payment_terms ??
    effectivePaymentTerms(charge.payment_terms, buyer.payment_terms, seller.default_payment_terms);
  const key = resold ? resold.group_key : groupKey(charge, date, paymentTerms);
  let invoice = key
    ? await em.findOne(
        InvoiceEntity,
        { organization_id: organizationId, group_key: key, status: 'pending' },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      )
    : null;
  const isNew = invoice === null;
  if (!invoice) {
    const id = randomUUID();
    await announceNewInvoices(scope, deps.directory, context, buyer.account_id, [id]);
    invoice = createInvoiceRow(scope, {
      id,
      buyer,
      seller,
      date,
      due_date: dueDate(date, paymentTerms),
      payment_terms: paymentTerms,
      currency: charge.currency as CurrencyCode,
      collection_method: resold?.collection_method ?? charge.collection_method,
      po_number: resold?.po_number ?? charge.po_number,
      group_key: key,
    });
  }
  // Described in the invoice's language (a grouped invoice keeps the one it was made in).
  const language = documentLanguage(invoice.language);
  const lineAccount = resold ? { account: resold.line_account } : {};
  const chargeLines = chargeLineSources(charge, account.invoice_note, language).map((source) => ({
    ...source,
    charge_id: charge.uuid,
    ...lineAccount,
  }));
  // Draft lines flagged include_in_next_renewal_invoice join the account's next renewal invoice.
  const drafts =
    charge.kind === 'renewal'
      ? (await pendingDraftLines(em, organizationId, charge.account, { forNextRenewal: true, lock: true })).filter(
          (row) => row.currency === charge.currency,
        )
      : [];
  const draftLines = drafts.map((row) => ({ ...draftInvoiceLineOf(row), ...lineAccount }));
  await addLines(scope, invoice, [...chargeLines, ...draftLines], { isNew });
  markDraftLinesInvoiced(scope, drafts, invoice.id);
  em.create(InvoicedChargeEntity, {
    charge_id: charge.uuid,
    organization_id: organizationId,
    invoice_id: invoice.id,
    created_at: now,
  });
  if (resold) {
    // Collected until its collection day ends (grouped-invoice issuer, or the test clock's advance).
    invoice.issue_after = resold.issue_after;
  } else if (key) {
    invoice.issue_after = new Date(deps.clock.now().getTime() + GROUP_WINDOW_MS);
  } else {
    await issueInvoice(scope, invoice, buyer.recipients);
    // cancel_invalid: the subscription was a mistake; its invoices are credited in full at once.
    if (charge.credit_all_invoices && invoice.is_credit_note)
      await creditSubscriptionInvoices(scope, invoice, charge.subscription);
  }
}

/**
 * The moment a charge is invoiced at. On a test clock that moved on before the charge arrived
 * (an advance running past the moment it was made), the invoice is made when the charge was, as
 * it would have been had the event been consumed at once; a real-clock organization's is now.
 */
function invoicedAt(testClockTime: Date | null, occurredAt: Date | undefined, now: Date): Date {
  if (!testClockTime) return now;
  return occurredAt && occurredAt < testClockTime ? occurredAt : testClockTime;
}
