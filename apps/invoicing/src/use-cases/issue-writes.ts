import type { EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { type ChangeScope, CollectedChangeRecords } from '@billing/runtime';
import type { EntityManager } from '@mikro-orm/postgresql';
import { writeDraftLinesInvoiced } from '../db/draft-line-store.js';
import type { DraftInvoiceLineRow } from '../db/entities/draft-invoice-line.entity.js';
import type { InvoiceRow } from '../db/entities/invoice.entity.js';
import type { InvoiceLineRow } from '../db/entities/invoice-line.entity.js';
import type { InvoicedChargeRow } from '../db/entities/invoiced-charge.entity.js';
import type { MailJobRow } from '../db/entities/mail-job.entity.js';
import {
  insertInvoicedCharges,
  insertInvoiceLines,
  insertMailJobs,
  insertNumberedInvoices,
  unnumberedInvoices,
} from '../db/issue-batch-store.js';

const PRODUCER = 'invoicing';

/**
 * The writes of a batch of charges, collected while each charge is invoiced in order and then
 * written with one multi-row statement per table (issue-batch-store.ts): the invoices issued at
 * once with their lines, the invoiced charges, the mail jobs, the draft lines invoiced, the audit
 * rows and the outbox rows. The same rows the unit of work would write, without its per-entity
 * cost. Rows the unit of work tracks (grouped pending invoices, invoices credited) stay with it.
 */
export class IssueWrites {
  private invoices: InvoiceRow[] = [];
  private lines: InvoiceLineRow[] = [];
  private invoicedCharges: InvoicedChargeRow[] = [];
  private mailJobs: MailJobRow[] = [];
  private invoicedDrafts: DraftInvoiceLineRow[] = [];
  private readonly records: CollectedChangeRecords;
  /** The lines of each new invoice, in sort order (their ids set once written). */
  private readonly linesByInvoice = new Map<string, InvoiceLineRow[]>();

  /** `published`: where the envelopes of the events go too, for the hand-over after the commit. */
  constructor(published: EventEnvelope[]) {
    this.records = new CollectedChangeRecords(PRODUCER, { published });
  }

  /** A new invoice (a plain row), to be issued: written numbered by writeIssued. */
  addInvoice(invoice: InvoiceRow): void {
    this.invoices.push(invoice);
    this.linesByInvoice.set(invoice.id, []);
  }

  addLines(invoiceId: string, lines: readonly InvoiceLineRow[]): void {
    this.lines.push(...lines);
    this.linesByInvoice.get(invoiceId)?.push(...lines);
  }

  linesOf(invoiceId: string): readonly InvoiceLineRow[] {
    return this.linesByInvoice.get(invoiceId) ?? [];
  }

  addInvoicedCharge(row: InvoicedChargeRow): void {
    this.invoicedCharges.push(row);
  }

  addMailJob(row: MailJobRow): void {
    this.mailJobs.push(row);
  }

  /** Draft lines (untracked rows: pendingRenewalDraftLines) that markDraftLinesInvoiced marked invoiced. */
  addInvoicedDrafts(rows: readonly DraftInvoiceLineRow[]): void {
    this.invoicedDrafts.push(...rows);
  }

  /** changeScope whose audit rows and events are collected here instead of the unit of work. */
  scope(em: EntityManager, organizationId: string, context: RequestContext, now: Date): ChangeScope {
    return this.records.scope(em, organizationId, context, now);
  }

  /**
   * Issues `issuing` (new invoices of this collection, in issue order, their issued state set but
   * for the number): serializes them, writes everything else collected so far (writeRows: their
   * lines with ids, the invoiced charges, the mail jobs), then takes their numbers and inserts them
   * in one statement (insertNumberedInvoices). `afterNumbering` runs once the numbers are taken;
   * answers the first number. The organization's counter row is locked from that last statement
   * to the commit, so nothing else of this method is done while other batches cannot number.
   */
  async writeIssued(
    em: EntityManager,
    organizationId: string,
    issuing: readonly InvoiceRow[],
    afterNumbering?: () => void,
  ): Promise<number> {
    const ids = new Set(issuing.map((invoice) => invoice.id));
    const collected = this.invoices.filter((invoice) => ids.has(invoice.id));
    if (collected.length !== ids.size || ids.size !== issuing.length) {
      throw new Error('an invoice issued with a batch must be a new row collected for it, once');
    }
    this.invoices = this.invoices.filter((invoice) => !ids.has(invoice.id));
    const unnumbered = unnumberedInvoices(issuing);
    await this.writeRows(em);
    const first = await insertNumberedInvoices(em, organizationId, unnumbered);
    afterNumbering?.();
    return first;
  }

  /**
   * Writes the lines, invoiced charges, mail jobs and invoiced draft lines collected so far. New
   * invoices are written only numbered, by writeIssued: one still collected here was never issued.
   */
  async writeRows(em: EntityManager): Promise<void> {
    if (this.invoices.length > 0) {
      throw new Error(`${this.invoices.length} new invoices were collected and never issued`);
    }
    const lines = this.lines;
    const invoicedCharges = this.invoicedCharges;
    const mailJobs = this.mailJobs;
    const invoicedDrafts = this.invoicedDrafts;
    this.lines = [];
    this.invoicedCharges = [];
    this.mailJobs = [];
    this.invoicedDrafts = [];
    await insertInvoiceLines(em, lines);
    await insertInvoicedCharges(em, invoicedCharges);
    await insertMailJobs(em, mailJobs);
    await writeDraftLinesInvoiced(em, invoicedDrafts);
  }

  /** Writes everything still collected: the rows, then the audit rows and the events in their order. */
  async write(em: EntityManager): Promise<void> {
    await this.writeRows(em);
    await this.records.write(em);
  }
}
