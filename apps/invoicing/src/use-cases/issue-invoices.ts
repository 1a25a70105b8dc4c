import { randomUUID } from 'node:crypto';
import { countAfterCommit } from '@billing/db';
import type { CurrencyCode } from '@billing/money';
import { money } from '@billing/money';
import { invoicesIssuedTotal, type RequestContext } from '@billing/observability';
import type { ChangeScope } from '@billing/runtime';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InvoiceEntity, type InvoiceRow } from '../db/entities/invoice.entity.js';
import { InvoiceLineEntity, type InvoiceLineRow } from '../db/entities/invoice-line.entity.js';
import { MailJobEntity, type MailJobRow } from '../db/entities/mail-job.entity.js';
import { linesOf, nextInvoiceNumber } from '../db/invoice-store.js';
import { invoiceView } from '../db/invoice-view.js';
import { type BankAccountSnapshot, payToBankAccount } from '../domain/bank-account.js';
import { composeInvoice, type LineSource, settledStatus } from '../domain/compose-invoice.js';
import type { Buyer, Seller } from '../domain/directory.js';
import { einvoiceSnapshot } from '../domain/einvoice/einvoice-snapshot.js';
import type { InvoiceLineInput } from '../domain/invoice-line-input.js';
import { publishInvoiceEvent } from '../events/invoice-events.js';
import { queueEinvoiceDelivery } from './deliver-einvoices.js';
import { publishInvoiceChange } from './invoice-change.js';
import type { IssueWrites } from './issue-writes.js';

export interface NewInvoice {
  /** The uuid announceNewInvoices announced to accounts for it in this transaction. */
  id: string;
  buyer: Buyer;
  seller: Seller;
  date: string;
  due_date: string;
  payment_terms: number;
  currency: CurrencyCode;
  collection_method: string;
  po_number: string;
  group_key: string | null;
  credit_note_for?: string | null;
  /** Default: the seller's bank account for the currency (payToBankAccount). */
  bank_account?: BankAccountSnapshot | null;
}

/**
 * Creates an invoice row (not yet numbered: 'pending') for `invoice`, under the uuid announced for
 * it (announceNewInvoices) in the same transaction.
 */
export function createInvoiceRow(scope: ChangeScope, invoice: NewInvoice): InvoiceRow {
  return scope.em.create(InvoiceEntity, newInvoiceRow(scope, invoice));
}

/** The row createInvoiceRow makes, as a plain object the unit of work does not track (IssueWrites writes it). */
export function newInvoiceRow(scope: Pick<ChangeScope, 'organizationId' | 'now'>, invoice: NewInvoice): InvoiceRow {
  return {
    id: invoice.id,
    organization_id: scope.organizationId,
    account_id: invoice.buyer.account_id,
    account_code: invoice.buyer.code,
    invoice_number: null,
    external_invoice_number: '',
    date: invoice.date,
    due_date: invoice.due_date,
    currency: invoice.currency,
    status: 'pending',
    kickback_status: null,
    collection_method: invoice.collection_method,
    payment_terms: invoice.payment_terms,
    subtotal: '0',
    vat: '0',
    total: '0',
    balance: '0',
    is_credit_note: false,
    credit_note_for: invoice.credit_note_for ?? null,
    reverse_charge: false,
    vat_note: '',
    vat_breakdown: [],
    seller: invoice.seller.party,
    buyer: invoice.buyer.party,
    bank_account:
      invoice.bank_account !== undefined
        ? invoice.bank_account
        : payToBankAccount(invoice.seller.bank_accounts, invoice.currency),
    language: invoice.buyer.language,
    einvoice: einvoiceSnapshot(
      invoice.buyer.einvoicing,
      invoice.buyer.einvoice_field_mappings,
      invoice.seller.party,
      invoice.seller.test_clock_time !== null,
    ),
    einvoice_status: null,
    po_number: invoice.po_number,
    group_key: invoice.group_key,
    issue_after: null,
    paid_date: null,
    imported: false,
    import_source: '',
    issued_at: null,
    version: 0,
    created_at: scope.now,
    updated_at: scope.now,
  } as InvoiceRow;
}

const asSource = (row: InvoiceLineRow): LineSource => ({
  description: row.description,
  sku: row.sku,
  vat_type: row.vat_type,
  collect_vat: row.collect_vat,
  date_from: row.date_from ?? null,
  date_to: row.date_to ?? null,
  price: row.price,
  quantity: row.quantity,
  subtotal: row.subtotal,
});

/**
 * Adds lines to a not yet issued invoice and recomputes every line's VAT and the totals (VAT per
 * rate on the whole invoice, gaps §7). A negative total makes it a credit note. `options.existing`:
 * the invoice's lines so far, known to the caller (none for an invoice createInvoiceRow made in
 * this unit of work), so the query for them is skipped (see bench/README.md "Invoices").
 */
export async function addLines(
  scope: ChangeScope,
  invoice: InvoiceRow,
  inputs: readonly InvoiceLineInput[],
  options: { existing?: readonly InvoiceLineRow[] } = {},
): Promise<InvoiceLineRow[]> {
  const existing = options.existing ?? (await linesOf(scope.em, [invoice.id])).get(invoice.id) ?? [];
  const composed = composeLines(scope, invoice, existing, inputs);
  existing.forEach((row, index) => {
    scope.em.assign(row, composed.existing[index]!);
  });
  const added = composed.added.map((row) => scope.em.create(InvoiceLineEntity, row));
  scope.em.assign(invoice, composed.invoice);
  return added;
}

/**
 * addLines for a new invoice that is a plain row (newInvoiceRow, not tracked by the unit of work):
 * the invoice's totals are set on it and its lines are returned as plain rows, for IssueWrites.
 */
export function addLinesToNewInvoice(
  scope: Pick<ChangeScope, 'organizationId' | 'now'>,
  invoice: InvoiceRow,
  inputs: readonly InvoiceLineInput[],
): InvoiceLineRow[] {
  const composed = composeLines(scope, invoice, [], inputs);
  Object.assign(invoice, composed.invoice);
  return composed.added;
}

/** What adding `inputs` to an invoice with `existing` lines changes: each existing line, the new lines, the invoice. */
function composeLines(
  scope: Pick<ChangeScope, 'organizationId' | 'now'>,
  invoice: InvoiceRow,
  existing: readonly InvoiceLineRow[],
  inputs: readonly InvoiceLineInput[],
): {
  existing: Pick<InvoiceLineRow, 'vat_rate' | 'vat' | 'total'>[];
  added: InvoiceLineRow[];
  invoice: Partial<InvoiceRow>;
} {
  const sources: LineSource[] = [...existing.map(asSource), ...inputs];
  const currency = invoice.currency as CurrencyCode;
  const parties = {
    seller_country: invoice.seller.country,
    buyer_country: invoice.buyer.country,
    buyer_vat_number: invoice.buyer.vat_number || null,
  };
  const { lines, totals } = composeInvoice(sources, parties, currency);
  const added = inputs.map((input, offset) => {
    const composed = lines[existing.length + offset]!;
    return {
      organization_id: scope.organizationId,
      invoice_id: invoice.id,
      account_id: input.account?.id ?? invoice.account_id,
      account_code: input.account?.code ?? invoice.account_code,
      description: input.description,
      sku: input.sku,
      vat_type: input.vat_type,
      collect_vat: input.collect_vat,
      date_from: input.date_from,
      date_to: input.date_to,
      price: input.price,
      quantity: input.quantity,
      subtotal: input.subtotal,
      vat_rate: composed.vat_rate,
      vat: composed.vat,
      total: composed.total,
      currency,
      refund_of: input.refund_of ?? null,
      subscription_id: input.subscription ?? null,
      terms_id: input.terms ?? null,
      product_id: input.product_id ?? null,
      charge_id: input.charge_id ?? null,
      draft_invoice_line_id: input.draft_invoice_line_id ?? null,
      sort_weight: existing.length + offset + 1,
      reference_person: input.reference_person ?? '',
      account_reference_person: input.account_reference_person ?? '',
      po_number: input.po_number ?? '',
      case_number: input.case_number ?? '',
      invoice_supplement: input.invoice_supplement ?? null,
      custom_fields: input.custom_fields ?? {},
      pricing: input.pricing ?? {},
      created_at: scope.now,
    } as InvoiceLineRow;
  });
  return {
    existing: existing.map((_row, index) => {
      const composed = lines[index]!;
      return { vat_rate: composed.vat_rate, vat: composed.vat, total: composed.total };
    }),
    added,
    invoice: {
      subtotal: totals.subtotal,
      vat: totals.vat,
      total: totals.total,
      balance: totals.total,
      vat_breakdown: totals.vat_breakdown,
      reverse_charge: totals.reverse_charge,
      vat_note: totals.vat_note,
      is_credit_note: money(totals.total).isNegative(),
      updated_at: scope.now,
    },
  };
}

/**
 * Issues an invoice: the organization's next number (gapless, in issue order, in this
 * transaction), status from its balance, invoice.issued through the outbox, and an e-mail job for
 * the buyer's recipients that receive invoices, or, for an e-invoice, its delivery.
 */
export async function issueInvoice(
  scope: ChangeScope,
  invoice: InvoiceRow,
  recipients: Buyer['recipients'],
): Promise<void> {
  const number = await nextInvoiceNumber(scope.em, scope.organizationId);
  scope.em.assign(invoice, { invoice_number: number });
  markIssued(scope, invoice, recipients);
  await publishInvoiceChange(scope, 'invoice.issued', invoice);
  scope.audit('invoice.issue', 'invoice', invoice.id, { invoice_number: number, total: invoice.total });
}

/**
 * What issuing does to one invoice but for its number, whether issued alone or with others: its
 * status from its balance, an e-mail job for the buyer's recipients that receive invoices or, for
 * an e-invoice, its delivery, and the invoices-issued counter once the transaction commits.
 * `writes`: the invoice is a plain row of IssueWrites, which takes its mail job too.
 */
function markIssued(
  scope: ChangeScope,
  invoice: InvoiceRow,
  recipients: Buyer['recipients'],
  writes?: IssueWrites,
): void {
  const issued = {
    status: settledStatus(invoice.balance, 'payment'),
    issued_at: scope.now,
    issue_after: null,
    updated_at: scope.now,
  };
  if (writes) Object.assign(invoice, issued);
  else scope.em.assign(invoice, issued);
  // An e-invoice goes to the buyer's invoice box through the access point, never by e-mail.
  if (invoice.einvoice) queueEinvoiceDelivery(scope, invoice);
  else if (recipients.length > 0) {
    const job = invoiceMailJob(scope, invoice.id, recipients, invoice.seller.email);
    if (writes) writes.addMailJob(job);
    else scope.em.create(MailJobEntity, job);
  }
  countAfterCommit(scope.em, 'invoices_issued', 1, (total) => invoicesIssuedTotal.inc(total));
}

/** An invoice made in this transaction, to be issued with others of its organization. */
export interface InvoiceToIssue {
  /** The change it was made in (its moment and request). */
  scope: ChangeScope;
  invoice: InvoiceRow;
  recipients: Buyer['recipients'];
}

/**
 * Issues new invoices (plain rows collected in `writes`, not yet written), as issueInvoice would
 * one after the other, with one number allocation for all (the counter row locked until commit:
 * gapless, in the given order). Everything that needs no number is written first (the lines, the
 * invoiced charges, the mail jobs: IssueWrites.writeIssued), so the counter is held from the
 * statement that numbers and inserts the invoices to the commit; their invoice.issued messages are
 * made from the rows as written (the lines with their ids). `afterNumbering` is called once the
 * numbers are taken (the counter row locked).
 */
export async function issueNewInvoices(
  em: EntityManager,
  organizationId: string,
  invoices: readonly InvoiceToIssue[],
  writes: IssueWrites,
  afterNumbering?: () => void,
): Promise<void> {
  if (invoices.length === 0) return;
  for (const { scope, invoice, recipients } of invoices) {
    markIssued(scope, invoice, recipients, writes);
    // publishInvoiceChange's version step, taken before the rows are inserted with it.
    invoice.version += 1;
  }
  const issuing = invoices.map(({ invoice }) => invoice);
  const first = await writes.writeIssued(em, organizationId, issuing, afterNumbering);
  issuing.forEach((invoice, index) => {
    invoice.invoice_number = first + index;
  });
  for (const { scope, invoice } of invoices) {
    // A reminder names an issued invoice: one inserted by this transaction has none.
    publishInvoiceEvent(scope, 'invoice.issued', {
      ...invoiceView(invoice, writes.linesOf(invoice.id)),
      reminders: [],
    });
    scope.audit('invoice.issue', 'invoice', invoice.id, {
      invoice_number: invoice.invoice_number,
      total: invoice.total,
    });
  }
}

/**
 * An e-mail job for the invoice, sent by the mail worker after this change commits; `replyTo`: the
 * organization's e-mail ('' for none).
 */
export function queueInvoiceMail(
  scope: ChangeScope,
  invoiceId: string,
  recipients: Buyer['recipients'],
  replyTo: string,
  reminderId: string | null = null,
): void {
  scope.em.create(MailJobEntity, invoiceMailJob(scope, invoiceId, recipients, replyTo, reminderId));
}

/** The e-mail job queueInvoiceMail writes, as a plain row. */
function invoiceMailJob(
  scope: Pick<ChangeScope, 'organizationId' | 'now'>,
  invoiceId: string,
  recipients: Buyer['recipients'],
  replyTo: string,
  reminderId: string | null = null,
): MailJobRow {
  return {
    id: randomUUID(),
    organization_id: scope.organizationId,
    invoice_id: invoiceId,
    recipients,
    reply_to: replyTo,
    reminder_id: reminderId,
    attempts: 0,
    last_error: null,
    sent_at: null,
    created_at: scope.now,
  };
}

/** The request context of work done for an organization outside a request (consumers, workers). */
export function systemContext(organizationId: string, requestId: string): RequestContext {
  return { requestId, organizationId, clientSystem: 'invoicing' };
}
