import { randomUUID } from 'node:crypto';
import { afterCommit } from '@billing/db';
import { effectivePaymentTerms } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { EventEnvelope } from '@billing/events';
import type { CurrencyCode } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pendingRenewalDraftLines } from '../db/draft-line-store.js';
import { draftInvoiceLineOf } from '../db/draft-line-view.js';
import type { DraftInvoiceLineRow } from '../db/entities/draft-invoice-line.entity.js';
import { InvoiceEntity, type InvoiceRow } from '../db/entities/invoice.entity.js';
import type { InvoiceLineRow } from '../db/entities/invoice-line.entity.js';
import { invoicedChargeIds, linesOf, lockInvoiceGroup } from '../db/invoice-store.js';
import { chargeLineSources, groupKey } from '../domain/charge-lines.js';
import { dueDate } from '../domain/compose-invoice.js';
import type { Buyer, Seller } from '../domain/directory.js';
import { documentLanguage } from '../domain/language/texts.js';
import { localDay } from '../domain/local-day.js';
import type { ReceivedCharge } from '../domain/received-charge.js';
import { resellerInvoicePlan } from '../domain/reseller-invoice.js';
import { announceNewInvoicesOfAccounts } from './announce-invoices.js';
import type { InvoicingDeps } from './deps.js';
import { creditSubscriptionInvoices } from './invoice-actions.js';
import {
  addLines,
  addLinesToNewInvoice,
  createInvoiceRow,
  type InvoiceToIssue,
  issueNewInvoices,
  newInvoiceRow,
  systemContext,
} from './issue-invoices.js';
import { IssueWrites } from './issue-writes.js';
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

/** One charge to invoice and where it comes from. */
export interface ChargeToInvoice {
  charge: ReceivedCharge;
  origin: ChargeOrigin;
}

/** One charge: invoiceCharges of a batch of one. */
export function invoiceCharge(
  deps: InvoicingDeps,
  em: EntityManager,
  charge: ReceivedCharge,
  origin: ChargeOrigin,
): Promise<void> {
  return invoiceCharges(deps, em, [{ charge, origin }]);
}

/**
 * Charges of the subscription engine become invoice lines, each exactly once (the charge id is the
 * key of invoiced_charge, in the charge consumer's transaction `em` with the inbox rows). Renewal
 * charges of group_on_invoice subscriptions join the pending invoice of their group (issued when
 * the group window has passed, or when the test clock asks); every other charge is its own invoice
 * (a credit note when negative), issued at once. A charge of an account that names a reseller goes
 * to the reseller's pending invoice of its collection day and group instead, each line naming the
 * resold account, issued once that day has ended (gaps.md §3, domain/reseller-invoice.ts). Draft
 * lines flagged include_in_next_renewal_invoice join a renewal charge's invoice; for a test-clock
 * organization the invoice and draft line events are handed over to the read model once the
 * consumer's transaction commits (a real-clock organization's reach it through the stream).
 *
 * A batch is invoiced as its charges would be one after the other, in their order, with the
 * database work of the batch done together (bench/README.md "billing-run"): one look-up of the
 * charges already invoiced and of the accounts' pending renewal draft lines, the new invoices
 * announced to accounts together, their lines, invoiced charges and mail jobs written one
 * statement per table, then the invoices numbered and inserted by one statement under the
 * organization's counter lock (gapless, in the batch's order: IssueWrites.writeIssued).
 */
export async function invoiceCharges(
  deps: InvoicingDeps,
  em: EntityManager,
  charges: readonly ChargeToInvoice[],
  options: InvoiceChargesOptions = {},
): Promise<void> {
  const byOrganization = new Map<string, ChargeToInvoice[]>();
  for (const item of charges) {
    const group = byOrganization.get(item.origin.organizationId);
    if (group) group.push(item);
    else byOrganization.set(item.origin.organizationId, [item]);
  }
  const organizations = [...byOrganization];
  for (const [index, [organizationId, group]] of organizations.entries()) {
    const last = index === organizations.length - 1;
    await invoiceOrganizationCharges(deps, em, organizationId, group, last ? options.afterNumbering : undefined);
  }
}

export interface InvoiceChargesOptions {
  /**
   * Called once the batch numbered what its last organization issues at its end: from then on no
   * other transaction can number that organization's invoices before this one commits (the
   * counter row stays locked), the organizations before it were numbered already, and the batch
   * writes no invoiced charge any more. The charge consumer lets its next batch start then (never
   * called when its last organization issues nothing at the end, e.g. when only grouped, resold
   * or already invoiced charges follow a cancel_invalid note issued mid-batch: the next batch then
   * starts after the commit).
   */
  afterNumbering?: () => void;
}

/** What the charges of one organization in a batch share while they are invoiced in order. */
interface OrganizationBatch {
  deps: InvoicingDeps;
  em: EntityManager;
  organizationId: string;
  seller: Seller;
  /** The events of the batch, handed over to the read model after the commit (test-clock organizations only). */
  published: EventEnvelope[];
  /** Pending renewal draft lines by account, locked; a line leaves when an invoice takes it. */
  renewalDrafts: Map<string, DraftInvoiceLineRow[]>;
  /** The pending grouped invoices this batch found or made, by group key. */
  pendingByKey: Map<string, InvoiceRow>;
  /** The lines of every invoice this batch added lines to, by invoice id, in sort order. */
  linesByInvoice: Map<string, InvoiceLineRow[]>;
  /** The buyers of the batch's accounts and of their resellers, read together. */
  buyers: Map<string, Buyer>;
  /** The context the batch's calls to accounts go with (its first charge's request). */
  context: RequestContext;
  /** New invoices not yet announced to accounts, by account. */
  unannounced: Map<string, string[]>;
  /** Invoices to issue, in the order their charges came. */
  toIssue: InvoiceToIssue[];
  /** The rows and events of the batch, written one statement per table (not by the unit of work). */
  writes: IssueWrites;
  /** InvoiceChargesOptions.afterNumbering, for the batch's last organization. */
  afterNumbering: (() => void) | undefined;
}

async function invoiceOrganizationCharges(
  deps: InvoicingDeps,
  em: EntityManager,
  organizationId: string,
  charges: readonly ChargeToInvoice[],
  afterNumbering: (() => void) | undefined,
): Promise<void> {
  const invoiced = new Set(
    await invoicedChargeIds(
      em,
      organizationId,
      charges.map(({ charge }) => charge.uuid),
    ),
  );
  // Each charge once: one already invoiced, or twice in the batch, is not invoiced again.
  const todo = charges.filter(({ charge }) => {
    if (invoiced.has(charge.uuid)) return false;
    invoiced.add(charge.uuid);
    return true;
  });
  if (todo.length === 0) return;
  const first = todo[0]!;
  const context = systemContext(organizationId, first.origin.requestId);
  const renewalAccounts = todo.filter(({ charge }) => charge.kind === 'renewal').map(({ charge }) => charge.account);
  // The calls to accounts and the draft lines' query at once: the batch waits for the slowest
  // rather than for each in turn (the consumer takes its next batch only after this one).
  const [seller, buyers, renewalDrafts] = await Promise.all([
    deps.directory.seller(context),
    buyersOf(deps, context, todo),
    pendingRenewalDraftLines(em, organizationId, renewalAccounts),
  ]);
  const published: EventEnvelope[] = [];
  const batch: OrganizationBatch = {
    deps,
    em,
    organizationId,
    seller,
    published,
    renewalDrafts,
    pendingByKey: new Map(),
    linesByInvoice: new Map(),
    buyers,
    context,
    unannounced: new Map(),
    toIssue: [],
    writes: new IssueWrites(published),
    afterNumbering,
  };
  // The consumer's transaction is not a runChange: its invoice and draft line events are handed over
  // here, for a test-clock organization only: its advance waits until accounts has them. A
  // real-clock organization's read models take them from the stream (no caller waits for them), so
  // a billing run does not apply each twice, the hand-over and the durable consumer's copy waiting
  // on each other's inbox rows.
  const handOver = seller.test_clock_time ? deps.committedEvents : undefined;
  if (handOver) {
    const run = () => (batch.published.length > 0 ? handOver(batch.published, context) : Promise.resolve());
    const turn = deps.handOvers?.begin();
    if (!turn) void afterCommit(em, run);
    else {
      // After the commit, in turn with the batches before (the next batch does not wait for accounts).
      let committed = false;
      void afterCommit(em, () => {
        committed = true;
        return turn.run(run);
      }).then(() => {
        if (!committed) turn.cancel();
      });
    }
  }
  for (const item of todo) await invoiceOne(batch, item);
  await issueQueued(batch, batch.afterNumbering);
  await batch.writes.write(em);
}

async function invoiceOne(batch: OrganizationBatch, { charge, origin }: ChargeToInvoice): Promise<void> {
  const { deps, em, organizationId, seller } = batch;
  const context = systemContext(organizationId, origin.requestId);
  const account = buyerIn(batch.buyers, charge.account);
  // gaps.md §3: every line of a resold account is invoiced to its reseller.
  const buyer = account.reseller ? buyerIn(batch.buyers, account.reseller) : account;
  const now = invoicedAt(seller.test_clock_time, origin.occurredAt, deps.clock.now());
  const scope = batch.writes.scope(em, organizationId, context, now);

  const chargeDay = localDay(charge.due_at ?? now, seller.time_zone);
  const resold = account.reseller ? resellerInvoicePlan(charge, account, buyer, seller, chargeDay) : null;
  const date = resold?.date ?? chargeDay;
  const paymentTerms =
    resold?.payment_terms ??
    effectivePaymentTerms(charge.payment_terms, buyer.payment_terms, seller.default_payment_terms);
  const key = resold ? resold.group_key : groupKey(charge, date, paymentTerms);
  let invoice = key ? await pendingInvoiceOfGroup(batch, key) : null;
  if (!invoice) {
    const id = randomUUID();
    announceLater(batch, buyer.account_id, id);
    const newInvoice = {
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
    };
    // An invoice issued at once is a plain row written with the batch's; a pending one (grouped,
    // resold) stays in the unit of work, as later charges and batches add lines to it.
    if (key) {
      invoice = createInvoiceRow(scope, newInvoice);
      batch.pendingByKey.set(key, invoice);
    } else {
      invoice = newInvoiceRow(scope, newInvoice);
      batch.writes.addInvoice(invoice);
    }
    batch.linesByInvoice.set(id, []);
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
  const drafts = charge.kind === 'renewal' ? takeRenewalDrafts(batch, charge.account, charge.currency) : [];
  const draftLines = drafts.map((row) => ({ ...draftInvoiceLineOf(row), ...lineAccount }));
  const existing = await linesOfInvoice(batch, invoice.id);
  const inputs = [...chargeLines, ...draftLines];
  if (key) existing.push(...(await addLines(scope, invoice, inputs, { existing })));
  else {
    const added = addLinesToNewInvoice(scope, invoice, inputs);
    batch.writes.addLines(invoice.id, added);
    existing.push(...added);
  }
  markDraftLinesInvoiced(scope, drafts, invoice.id);
  batch.writes.addInvoicedDrafts(drafts);
  batch.writes.addInvoicedCharge({
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
    batch.toIssue.push({ scope, invoice, recipients: buyer.recipients });
    // cancel_invalid: the subscription was a mistake; its invoices are credited in full at once.
    if (charge.credit_all_invoices && invoice.is_credit_note) {
      // Its credit goes to the open invoices of the subscription, those issued before it in this batch included.
      // The next batch is not let in here: this one may still write invoiced charges after this
      // numbering, and the same charge in two events (one in each batch) would then have the two
      // batches wait on each other's locks.
      await issueQueued(batch, undefined);
      // Written now (issueQueued): the note as a row of the unit of work, which writes the credit's changes.
      const note = await em.findOneOrFail(InvoiceEntity, { id: invoice.id });
      await creditSubscriptionInvoices(scope, note, charge.subscription);
    }
  }
}

/** The organization's pending invoice of the group, made or found earlier in the batch or in the database (locked). */
async function pendingInvoiceOfGroup(batch: OrganizationBatch, key: string): Promise<InvoiceRow | null> {
  const known = batch.pendingByKey.get(key);
  if (known) return known;
  await lockInvoiceGroup(batch.em, batch.organizationId, key);
  const found = await batch.em.findOne(
    InvoiceEntity,
    { organization_id: batch.organizationId, group_key: key, status: 'pending' },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (found) batch.pendingByKey.set(key, found);
  return found;
}

/** The lines an invoice has so far: those this batch added, else (a pending invoice found) read once. */
async function linesOfInvoice(batch: OrganizationBatch, invoiceId: string): Promise<InvoiceLineRow[]> {
  let lines = batch.linesByInvoice.get(invoiceId);
  if (!lines) {
    lines = (await linesOf(batch.em, [invoiceId])).get(invoiceId) ?? [];
    batch.linesByInvoice.set(invoiceId, lines);
  }
  return lines;
}

/** The account's pending renewal draft lines in the charge's currency, taken off the batch's list. */
function takeRenewalDrafts(batch: OrganizationBatch, accountId: string, currency: string): DraftInvoiceLineRow[] {
  const pending = batch.renewalDrafts.get(accountId) ?? [];
  const taken = pending.filter((row) => row.currency === currency);
  if (taken.length > 0)
    batch.renewalDrafts.set(
      accountId,
      pending.filter((row) => row.currency !== currency),
    );
  return taken;
}

function announceLater(batch: OrganizationBatch, accountId: string, invoiceId: string): void {
  const invoiceIds = batch.unannounced.get(accountId);
  if (invoiceIds) invoiceIds.push(invoiceId);
  else batch.unannounced.set(accountId, [invoiceId]);
}

/**
 * The buyers of the charges' accounts and of their resellers, as the accounts service has them now
 * (an account updated just before its renewal is invoiced as it is now): two calls at most.
 */
async function buyersOf(
  deps: InvoicingDeps,
  context: RequestContext,
  charges: readonly ChargeToInvoice[],
): Promise<Map<string, Buyer>> {
  const buyers = await deps.directory.buyers(
    context,
    charges.map(({ charge }) => charge.account),
  );
  const resellers = [...buyers.values()]
    .map((buyer) => buyer.reseller)
    .filter((id): id is string => id !== null && !buyers.has(id));
  if (resellers.length > 0)
    for (const [id, buyer] of await deps.directory.buyers(context, resellers)) buyers.set(id, buyer);
  return buyers;
}

/** The account's buyer; NOT_FOUND for one that does not exist (any more): its charge is not invoiced. */
function buyerIn(buyers: Map<string, Buyer>, accountId: string): Buyer {
  const buyer = buyers.get(accountId);
  if (!buyer) throw AppError.notFound(`Account ${accountId} does not exist.`);
  return buyer;
}

/**
 * Announces the batch's new invoices to accounts (before the transaction commits, as every new
 * invoice is: announce-invoices.ts), then issues those waiting, in order.
 *
 * The issuing does not wait for accounts' answer (announceNewInvoicesOfAccounts' whileAnswering):
 * the call runs while the rows are written and the invoices numbered, off the batch's critical
 * path, as the next batch is let in at the numbering. The price: a refusal (or accounts unreachable)
 * now comes after the next batch was let in, so this batch's charges, retried one by one, are
 * numbered after that one's; and the counter row stays locked until accounts has answered.
 */
async function issueQueued(batch: OrganizationBatch, afterNumbering: (() => void) | undefined): Promise<void> {
  const announcements = [...batch.unannounced].map(([accountId, invoiceIds]) => ({ accountId, invoiceIds }));
  batch.unannounced.clear();
  const scope = batch.writes.scope(batch.em, batch.organizationId, batch.context, batch.deps.clock.now());
  const toIssue = batch.toIssue.splice(0);
  await announceNewInvoicesOfAccounts(scope, batch.deps.directory, batch.context, announcements, () =>
    issueNewInvoices(batch.em, batch.organizationId, toIssue, batch.writes, afterNumbering),
  );
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
