import { pgArray, selectBound } from '@billing/db';
import { isUuid } from '@billing/domain-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { InvoiceRow } from './entities/invoice.entity.js';
import type { InvoiceLineRow } from './entities/invoice-line.entity.js';
import type { InvoiceReminderRow } from './entities/invoice-reminder.entity.js';

/**
 * The reads and the write of SettleCardPayments as plain rows, past the unit of work: hydrating
 * the invoices, their lines and reminders as entities and computing their change sets cost about
 * three times the CPU of issuing the invoice (payments settles a third of a billing run's invoices).
 * The rows have the types the entities have (the driver answers bigints and timestamps as text).
 */

const dateOrNull = (value: string | Date | null): Date | null => (value === null ? null : new Date(value));
const numberOrNull = (value: string | number | null): number | null => (value === null ? null : Number(value));

type Raw<T> = { [K in keyof T]: unknown };

function invoiceRowOf(raw: Raw<InvoiceRow>): InvoiceRow {
  return {
    ...raw,
    invoice_number: numberOrNull(raw.invoice_number as string | null),
    issue_after: dateOrNull(raw.issue_after as string | null),
    issued_at: dateOrNull(raw.issued_at as string | null),
    created_at: new Date(raw.created_at as string),
    updated_at: new Date(raw.updated_at as string),
  } as InvoiceRow;
}

function lineRowOf(raw: Raw<InvoiceLineRow>): InvoiceLineRow {
  return {
    ...raw,
    id: Number(raw.id),
    refund_of: numberOrNull(raw.refund_of as string | null),
    created_at: new Date(raw.created_at as string),
  } as InvoiceLineRow;
}

function reminderRowOf(raw: Raw<InvoiceReminderRow>): InvoiceReminderRow {
  return { ...raw, created_at: new Date(raw.created_at as string) } as InvoiceReminderRow;
}

/**
 * lockIssuedInvoices as plain rows: the organization's issued invoices among `uuids` (pending ones
 * are not visible; unknown ones are left out), locked in the order of their ids.
 */
export async function lockIssuedInvoiceRows(
  em: EntityManager,
  organizationId: string,
  uuids: readonly string[],
): Promise<InvoiceRow[]> {
  const ids = [...new Set(uuids.filter(isUuid))];
  if (ids.length === 0) return [];
  const rows = await selectBound<Raw<InvoiceRow>>(
    em,
    // The ids as one bound array (the same statement for any batch). The organization is compared
    // as text (its canonical form) so that the planner looks the invoices up by their ids: on a
    // young table without statistics it estimated an organization at a few rows and scanned all
    // of its invoices through (organization_id, invoice_number), for every batch of payments.
    `select * from invoice where id = any(?::uuid[]) and organization_id::text = ? and status <> 'pending' order by id for update`,
    [pgArray(ids), organizationId.toLowerCase()],
  );
  return rows.map(invoiceRowOf);
}

/** The lines of each of the invoices in sort order (absent: none), as linesOf reads them, in one query. */
export async function lineRowsOf(
  em: EntityManager,
  invoiceIds: readonly string[],
): Promise<Map<string, InvoiceLineRow[]>> {
  const byInvoice = new Map<string, InvoiceLineRow[]>();
  if (invoiceIds.length === 0) return byInvoice;
  // Each invoice's lines by a lookup of its own (a lateral subquery the planner cannot flatten:
  // `offset 0`). As `invoice_id in (…)`, without statistics the planner counted 0.5 % of the table
  // per invoice and read every line ever written instead (a parallel sequential scan: about 7,500
  // buffers and 50 ms for 64 invoices at 100,000 lines, for every settled batch of card payments).
  const rows = await em.execute<Raw<InvoiceLineRow>[]>(
    `select l.* from unnest(?::uuid[]) as k(invoice_id)
       cross join lateral (select * from invoice_line where invoice_id = k.invoice_id offset 0) as l
      order by l.sort_weight, l.id`,
    [pgArray([...new Set(invoiceIds)])],
  );
  for (const raw of rows) {
    const line = lineRowOf(raw);
    const lines = byInvoice.get(line.invoice_id);
    if (lines) lines.push(line);
    else byInvoice.set(line.invoice_id, [line]);
  }
  return byInvoice;
}

/** The reminders of each of the invoices, oldest first (absent: none), as remindersOfInvoices reads them. */
export async function reminderRowsOf(
  em: EntityManager,
  invoiceIds: readonly string[],
): Promise<Map<string, InvoiceReminderRow[]>> {
  const byInvoice = new Map<string, InvoiceReminderRow[]>();
  if (invoiceIds.length === 0) return byInvoice;
  const rows = await em.execute<Raw<InvoiceReminderRow>[]>(
    'select * from invoice_reminder where invoice_id in (?) order by invoice_id, number',
    [[...invoiceIds]],
  );
  for (const raw of rows) {
    const reminder = reminderRowOf(raw);
    const reminders = byInvoice.get(reminder.invoice_id);
    if (reminders) reminders.push(reminder);
    else byInvoice.set(reminder.invoice_id, [reminder]);
  }
  return byInvoice;
}

/**
 * Writes the paid state of invoices (rows locked by lockIssuedInvoiceRows and changed by the
 * caller): their balance, status, paid date, version and updated_at, with one statement.
 */
export async function writeInvoicesPaid(
  em: EntityManager,
  organizationId: string,
  rows: readonly InvoiceRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => ({
    id: row.id,
    balance: row.balance,
    status: row.status,
    paid_date: row.paid_date,
    version: row.version,
    updated_at: row.updated_at,
  }));
  await em.execute(
    `update invoice as i
        set balance = v.balance, status = v.status, paid_date = v.paid_date, version = v.version, updated_at = v.updated_at
       from jsonb_to_recordset(?::jsonb) as v(id uuid, balance numeric, status text, paid_date text, version integer, updated_at timestamptz)
      where i.id in (?) and i.id = v.id and i.organization_id::text = ?`,
    // By their ids (the primary key), as lockIssuedInvoiceRows reads them.
    [JSON.stringify(values), rows.map((row) => row.id), organizationId.toLowerCase()],
  );
}
