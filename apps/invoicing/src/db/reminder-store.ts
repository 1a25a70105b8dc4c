import type { EntityManager } from '@mikro-orm/postgresql';
import { presentAmount } from '../domain/decimal-text.js';
import type { InvoiceReminderView } from '../domain/reminders/reminder-view.js';
import { InvoiceReminderEntity, type InvoiceReminderRow } from './entities/invoice-reminder.entity.js';

/** The reminders of an invoice, oldest first. */
export async function remindersOf(em: EntityManager, invoiceId: string): Promise<InvoiceReminderRow[]> {
  return em.find(InvoiceReminderEntity, { invoice_id: invoiceId }, { orderBy: [{ number: 'asc' }] });
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
