import { randomBytes, randomUUID } from 'node:crypto';
import { decodeEnvelope } from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';
import type pg from 'pg';
import { benchBuyer, SELLER } from './invoice-directory.js';
import { CONSUMER } from './invoice-service.js';

/**
 * The baseline of the invoice bench: the smallest correct raw-SQL program (pg, no ORM) that
 * writes the rows the invoicing service writes for the bench's charges (renewals of Danish
 * accounts without a VAT number, not grouped: one invoice each, 25 % VAT), one transaction per
 * message like the consumer:
 *
 * 1. the inbox row (`on conflict do nothing`, the redelivery guard);
 * 2. one statement: the organization's counter bump (the same upsert as nextInvoiceNumber), the
 *    invoice issued with that number (totals and VAT computed by Postgres: 25 % of the subtotal,
 *    rounded half up to øre, the breakdown as one rate), its lines, the invoiced_charge row, the
 *    mail job for the buyer's recipient, the audit row, and the invoice.issued outbox row with a
 *    payload of the size the service's envelopes had in the same run (no protobuf encoding).
 *
 * The envelope and the charge are decoded from the same bytes, as the service must. It knows
 * nothing beyond these rows: no VAT rules (the rate is fixed), grouping, draft lines, credit notes
 * or the invoiced_charge lookup (the inbox already makes a redelivery a no-op).
 */
export interface InvoiceBaselineWork {
  /** Average size of the service's invoice.issued outbox payload, in bytes. */
  payloadBytes: number;
}

/** The columns both baselines write, in the order of their values (the tables are invoicing's). */
export const INVOICE_COLUMNS = `(id, organization_id, account_id, account_code, invoice_number,
  external_invoice_number, date, due_date, currency, status, kickback_status, collection_method, payment_terms,
  subtotal, vat, total, balance, is_credit_note, credit_note_for, reverse_charge, vat_note, vat_breakdown, seller,
  buyer, language, po_number, group_key, issue_after, paid_date, imported, import_source, issued_at, created_at,
  updated_at)`;
export const INVOICE_LINE_COLUMNS = `(organization_id, invoice_id, account_id, account_code, description, sku,
  vat_type, collect_vat, date_from, date_to, price, quantity, subtotal, vat_rate, vat, total, currency, refund_of,
  subscription_id, terms_id, product_id, charge_id, draft_invoice_line_id, sort_weight, reference_person,
  account_reference_person, po_number, case_number, invoice_supplement, custom_fields, pricing, created_at)`;
export const MAIL_JOB_COLUMNS =
  '(id, organization_id, invoice_id, recipients, attempts, last_error, sent_at, created_at)';
export const AUDIT_LOG_COLUMNS = `(id, organization_id, api_user_id, client_system, external_user, request_id,
  action, object_type, object_id, occurred_at, details)`;
export const OUTBOX_COLUMNS = '(id, subject, payload, created_at, published_at, attempts, last_error)';

const INSERT_INBOX = `insert into inbox (consumer, message_id, processed_at) values ($1, $2, $3)
  on conflict (consumer, message_id) do nothing`;

const ISSUE = `with counter as (
    insert into invoice_number_counter (organization_id, last_number) values ($2, 1)
    on conflict (organization_id) do update set last_number = invoice_number_counter.last_number + 1
    returning last_number),
  line as (
    select l.*, round(l.subtotal * 0.25, 2) as vat
    from unnest($11::text[], $12::text[], $13::text[], $14::boolean[], $15::text[], $16::text[], $17::numeric[],
      $18::numeric[], $19::numeric[], $20::uuid[], $21::uuid[], $22::jsonb[]) with ordinality
      as l(description, sku, vat_type, collect_vat, date_from, date_to, price, quantity, subtotal, terms_id,
        product_id, pricing, sort_weight)),
  totals as (select sum(subtotal) as subtotal, round(sum(subtotal) * 0.25, 2) as vat from line),
  invoice as (
    insert into invoice ${INVOICE_COLUMNS}
    select $1, $2, $3, $4, counter.last_number, '', $5, $6, $7, 'open', null, $8, $9, totals.subtotal, totals.vat,
      totals.subtotal + totals.vat, totals.subtotal + totals.vat, false, null, false, '',
      jsonb_build_array(jsonb_build_object('rate', '25.00', 'base', totals.subtotal::text, 'vat', totals.vat::text)),
      $23, $24, $25, $10, null, null, null, false, '', $26, $26, $26
    from counter, totals
    returning id, invoice_number, total),
  lines as (
    insert into invoice_line ${INVOICE_LINE_COLUMNS}
    select $2, $1, $3, $4, description, sku, vat_type, collect_vat, date_from, date_to, price, quantity, subtotal,
      25, vat, subtotal + vat, $7, null, $27, terms_id, product_id, $28, null, sort_weight, $29, $30, $10, $31,
      null, $32, pricing, $26
    from line),
  charge as (insert into invoiced_charge (charge_id, organization_id, invoice_id, created_at) values ($28, $2, $1, $26)),
  mail as (
    insert into mail_job ${MAIL_JOB_COLUMNS}
    values ($33, $2, $1, $34, 0, null, null, $26)),
  audit as (
    insert into audit_log ${AUDIT_LOG_COLUMNS}
    select $35, $2, null, 'invoicing', null, $36, 'invoice.issue', 'invoice', $1, $26,
      jsonb_build_object('invoice_number', invoice.invoice_number, 'total', invoice.total::text)
    from invoice),
  outbox as (
    insert into outbox ${OUTBOX_COLUMNS}
    values ($37, 'invoicing.invoice.issued', $38, $26, null, 0, null))
  select invoice_number from invoice`;

/**
 * Invoices every message, `perTransaction` messages per transaction (1: one each, like the
 * consumer; bench:billing-run measures it with batches too, beside its batched baseline); returns
 * the number invoiced.
 */
export async function baselineInvoiceAll(
  pool: pg.Pool,
  messages: readonly Buffer[],
  work: InvoiceBaselineWork,
  perTransaction = 1,
): Promise<number> {
  return inBatchTransactions(pool, messages, perTransaction, async (client, batch) => {
    let issued = 0;
    for (const data of batch) if (await issueOne(client, data, work)) issued++;
    return issued;
  });
}

/**
 * Runs `write` for each batch of `perTransaction` messages in a transaction of its own, one after
 * the other on one connection of `pool`; returns the sum of what each batch's write counted.
 */
export async function inBatchTransactions(
  pool: pg.Pool,
  messages: readonly Buffer[],
  perTransaction: number,
  write: (client: pg.PoolClient, batch: readonly Buffer[]) => Promise<number>,
): Promise<number> {
  let written = 0;
  for (let start = 0; start < messages.length; start += perTransaction) {
    const batch = messages.slice(start, start + perTransaction);
    const client = await pool.connect();
    try {
      await client.query('begin');
      written += await write(client, batch);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  return written;
}

/** One message's rows, in the caller's transaction; false when its inbox row says it was seen. */
async function issueOne(client: pg.PoolClient, data: Buffer, work: InvoiceBaselineWork): Promise<boolean> {
  const invoice = baselineInvoiceOf(data, work);
  const { lines } = invoice;
  const inbox = await client.query(INSERT_INBOX, [CONSUMER, invoice.messageId, invoice.now]);
  if (inbox.rowCount !== 1) return false;
  await client.query(ISSUE, [
    invoice.id,
    invoice.organizationId,
    invoice.accountId,
    invoice.accountCode,
    invoice.date,
    invoice.dueDate,
    invoice.currency,
    invoice.collectionMethod,
    invoice.paymentTerms,
    invoice.poNumber,
    lines.map((line) => line.description),
    lines.map((line) => line.sku),
    lines.map((line) => line.vatType),
    lines.map((line) => line.collectVat),
    lines.map((line) => line.dateFrom),
    lines.map((line) => line.dateTo),
    lines.map((line) => line.price),
    lines.map((line) => line.quantity),
    lines.map((line) => line.subtotal),
    lines.map((line) => line.termsId),
    lines.map((line) => line.productId),
    lines.map((line) => line.pricing),
    invoice.seller,
    invoice.buyer,
    invoice.language,
    invoice.now,
    invoice.subscriptionId,
    invoice.chargeId,
    invoice.referencePerson,
    invoice.accountReferencePerson,
    invoice.caseNumber,
    invoice.customFields,
    invoice.mailJobId,
    invoice.recipients,
    invoice.auditId,
    invoice.requestId,
    invoice.outboxId,
    invoice.payload,
  ]);
  return true;
}

/** One line of a baseline invoice, as its columns take it. */
export interface BaselineLine {
  description: string;
  sku: string;
  vatType: string;
  collectVat: boolean;
  dateFrom: string;
  dateTo: string;
  price: string;
  quantity: string;
  subtotal: string;
  termsId: string;
  productId: string;
  /** The line's pricing JSON. */
  pricing: string;
}

/**
 * What a baseline writes for one charge.created message, decoded from its bytes as the service
 * must: the invoice's own values (JSON columns as JSON text), its lines, and the ids of the rows
 * that go with it. The total and VAT are Postgres's work (25 % of the subtotal, rounded half up).
 */
export interface BaselineInvoice {
  messageId: string;
  requestId: string;
  now: Date;
  id: string;
  organizationId: string;
  accountId: string;
  accountCode: string;
  date: string;
  dueDate: string;
  currency: string;
  collectionMethod: string;
  paymentTerms: number;
  poNumber: string;
  seller: string;
  buyer: string;
  language: string;
  subscriptionId: string;
  chargeId: string;
  referencePerson: string;
  accountReferencePerson: string;
  caseNumber: string;
  customFields: string;
  mailJobId: string;
  recipients: string;
  auditId: string;
  outboxId: string;
  payload: Buffer;
  lines: BaselineLine[];
}

const SELLER_JSON = JSON.stringify(SELLER.party);

/** The rows of one charge.created message (see BaselineInvoice). */
export function baselineInvoiceOf(data: Buffer, work: InvoiceBaselineWork): BaselineInvoice {
  const envelope = decodeEnvelope(data);
  const { charge } = subscriptionEventsV1.ChargeCreated.decode(envelope.payload);
  if (!charge) throw new Error(`charge.created ${envelope.event_id} has no charge`);
  const now = new Date();
  const buyer = benchBuyer(charge.account);
  const date = localDate(charge.due_at ?? now);
  return {
    messageId: envelope.event_id,
    requestId: envelope.request_id || envelope.event_id,
    now,
    id: randomUUID(),
    organizationId: envelope.organization_id,
    accountId: buyer.account_id,
    accountCode: buyer.code,
    date,
    dueDate: addDays(date, SELLER.default_payment_terms),
    currency: charge.currency,
    collectionMethod: charge.collection_method,
    paymentTerms: SELLER.default_payment_terms,
    poNumber: charge.po_number,
    seller: SELLER_JSON,
    buyer: JSON.stringify(buyer.party),
    language: buyer.language,
    subscriptionId: charge.subscription,
    chargeId: charge.uuid,
    referencePerson: charge.reference_person,
    accountReferencePerson: charge.account_reference_person,
    caseNumber: charge.case_number,
    customFields: JSON.stringify(charge.custom_fields ?? {}),
    mailJobId: randomUUID(),
    recipients: JSON.stringify(buyer.recipients),
    auditId: randomUUID(),
    outboxId: randomUUID(),
    payload: randomBytes(work.payloadBytes),
    lines: charge.lines.map((line) => ({
      description: `${line.plan_name} (${line.terms_code})`,
      sku: line.plan_code,
      vatType: line.vat_type,
      collectVat: line.collect_vat,
      dateFrom: line.date_from,
      dateTo: line.date_to,
      price: line.discounted_unit_price,
      quantity: String(line.quantity),
      subtotal: line.amount,
      termsId: line.terms,
      productId: line.plan,
      pricing: JSON.stringify({
        kind: line.kind,
        unit_price: line.unit_price,
        price_source: line.price_source,
        tiers_applied: line.tiers_applied,
        discounted_unit_price: line.discounted_unit_price,
        quantity: line.quantity,
        days: line.days,
        period_days: line.period_days,
        period_date_from: line.period_date_from,
        period_date_to: line.period_date_to,
      }),
    })),
  };
}

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SELLER.time_zone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The seller's calendar day of an instant (YYYY-MM-DD). */
function localDate(instant: Date): string {
  return dayFormat.format(instant);
}

function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}
