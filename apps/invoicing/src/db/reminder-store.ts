import type { EntityManager } from '@mikro-orm/postgresql';
import { presentAmount } from '../domain/decimal-text.js';
import type { InvoiceReminderView } from '../domain/reminders/reminder-view.js';
import { InvoiceEntity } from './entities/invoice.entity.js';
import { InvoiceReminderEntity, type InvoiceReminderRow } from './entities/invoice-reminder.entity.js';

/** The reminders of an invoice, oldest first. */
export async function remindersOf(em: EntityManager, invoiceId: string): Promise<InvoiceReminderRow[]> {
  return em.find(InvoiceReminderEntity, { invoice_id: invoiceId }, { orderBy: [{ number: 'asc' }] });
}

/** The reminders of each of the invoices, oldest first (absent: none), in one query. */
export async function remindersOfInvoices(
  em: EntityManager,
  invoiceIds: readonly string[],
): Promise<Map<string, InvoiceReminderRow[]>> {
  const byInvoice = new Map<string, InvoiceReminderRow[]>();
  if (invoiceIds.length === 0) return byInvoice;
  const rows = await em.find(
    InvoiceReminderEntity,
    { invoice_id: { $in: [...invoiceIds] } },
    { orderBy: [{ invoice_id: 'asc' }, { number: 'asc' }] },
  );
  for (const row of rows) byInvoice.set(row.invoice_id, [...(byInvoice.get(row.invoice_id) ?? []), row]);
  return byInvoice;
}

export function reminderView(row: InvoiceReminderRow, currency: string): InvoiceReminderView {
  return {
    number: row.number,
    date: row.date,
    days_after_due: row.days_after_due,
    fee: row.fee === null || row.fee === undefined ? null : presentAmount(row.fee, currency === 'ISK' ? 0 : 2),
    fee_draft_line: row.fee_draft_line_id ?? null,
    recipients: row.recipients,
    created_date: row.created_at,
  };
}

/** The number of the last reminder sent for each of the invoices (absent: none yet). */
export async function lastReminderNumbers(
  em: EntityManager,
  invoiceIds: readonly string[],
): Promise<Map<string, number>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await em.execute<Array<{ invoice_id: string; last: number | string }>>(
    // MikroORM writes an array parameter as a list: `in (?, ?, ...)`.
    'select invoice_id, max(number) as last from invoice_reminder where invoice_id in (?) group by invoice_id',
    [[...invoiceIds]],
  );
  return new Map(rows.map((row) => [row.invoice_id, Number(row.last)]));
}

/** The organizations with an open invoice collected by invoice (not a credit note) due before `day`. */
export async function organizationsWithInvoicesDueBefore(em: EntityManager, day: string): Promise<string[]> {
  const rows = await em
    .createQueryBuilder(InvoiceEntity)
    .select('organization_id', true)
    .where({ status: 'open', collection_method: 'invoice', is_credit_note: false, due_date: { $lt: day } })
    .execute<{ organization_id: string }[]>();
  return rows.map((row) => row.organization_id);
}
