import { executeBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { InvoiceRow } from './entities/invoice.entity.js';
import type { InvoiceLineRow } from './entities/invoice-line.entity.js';
import type { InvoicedChargeRow } from './entities/invoiced-charge.entity.js';
import type { MailJobRow } from './entities/mail-job.entity.js';

/**
 * The rows a batch of charges writes, each table in one multi-row INSERT in the caller's
 * transaction, bypassing the unit of work (its change sets and identity map were the largest part
 * of a batch's CPU). The rows must be plain objects the unit of work does not track, with every
 * column (their properties are named as the columns).
 */

/**
 * Inserts rows given as one JSON array (jsonb_populate_recordset), so the statement has one
 * parameter rather than one per value, and that one bound (executeBound): the ORM writes every
 * parameter into the SQL text, escaping the document character by character, and Postgres then
 * lexes it as a literal.
 */
async function insertAsJson(em: EntityManager, table: string, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  await executeBound(
    em,
    `insert into "${table}" select * from jsonb_populate_recordset(null::"${table}", ?::jsonb)`,
    [JSON.stringify(rows)],
    { prepared: true },
  );
}

/** New invoices to issue, serialized (unnumberedInvoices) before their numbers are taken. */
export interface UnnumberedInvoices {
  count: number;
  /** The rows as one JSON array, in issue order, `invoice_number` left null. */
  document: string;
}

/** The rows of `invoices` (in issue order, not yet numbered) for insertNumberedInvoices. */
export function unnumberedInvoices(invoices: readonly InvoiceRow[]): UnnumberedInvoices {
  return { count: invoices.length, document: JSON.stringify(invoices) };
}

/**
 * Takes the organization's next `count` invoice numbers (as nextInvoiceNumber takes one: the counter row
 * locked until commit, gapless) and inserts the invoices numbered with them in their order, in one
 * statement; answers the first number. The rows were serialized before (unnumberedInvoices), so
 * the time the counter is held, which no other batch of the organization can share, holds only the
 * database's own work.
 */
export async function insertNumberedInvoices(
  em: EntityManager,
  organizationId: string,
  invoices: UnnumberedInvoices,
): Promise<number> {
  const [row] = (
    await executeBound<{ last_number: string; inserted: string }>(
      em,
      `with counter as (
         insert into invoice_number_counter (organization_id, last_number) values (?, ?)
         on conflict (organization_id) do update set last_number = invoice_number_counter.last_number + excluded.last_number
         returning last_number
       ),
       inserted as (
         insert into "invoice"
         select numbered.* from jsonb_array_elements(?::jsonb) with ordinality as d(doc, n)
         cross join counter
         cross join lateral jsonb_populate_record(
           null::"invoice", d.doc || jsonb_build_object('invoice_number', counter.last_number - ? + d.n)
         ) as numbered
         returning 1
       )
       select counter.last_number, (select count(*) from inserted) as inserted from counter`,
      [organizationId, invoices.count, invoices.document, invoices.count],
      { prepared: true },
    )
  ).rows;
  if (row === undefined || Number(row.inserted) !== invoices.count) {
    throw new Error(`numbered ${row?.inserted ?? 0} invoices of ${invoices.count}`);
  }
  return Number(row.last_number) - invoices.count + 1;
}

/**
 * New invoices' lines (their invoices are inserted after them, numbered: insertNumberedInvoices;
 * the tables have no foreign key, the transaction holds both). The ids are taken from their sequence first
 * (ascending, in the order given, as one insert after the other would number them), so every line
 * knows its id for the invoice.issued message without reading the rows back.
 */
export async function insertInvoiceLines(em: EntityManager, lines: readonly InvoiceLineRow[]): Promise<void> {
  if (lines.length === 0) return;
  const ids = await em.execute<{ id: string }[]>(
    `select nextval(pg_get_serial_sequence('invoice_line', 'id')) as id from generate_series(1, ?)`,
    [lines.length],
  );
  const sorted = ids.map((row) => Number(row.id)).sort((a, b) => a - b);
  lines.forEach((line, index) => {
    line.id = sorted[index]!;
  });
  await insertAsJson(em, 'invoice_line', lines);
}

export async function insertInvoicedCharges(em: EntityManager, rows: readonly InvoicedChargeRow[]): Promise<void> {
  await insertAsJson(em, 'invoiced_charge', rows);
}

export async function insertMailJobs(em: EntityManager, rows: readonly MailJobRow[]): Promise<void> {
  await insertAsJson(em, 'mail_job', rows);
}
