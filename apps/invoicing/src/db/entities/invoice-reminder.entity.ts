import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A payment reminder of an open invoice (docs/api.md "Payment reminders"), written in the
 * transaction that queues its e-mail, publishes invoice.reminder_sent and adds its fee: the unique
 * (invoice, number) makes each reminder happen once, whoever runs it (the worker, a test clock's
 * advance, a retry after a crash).
 */
export const InvoiceReminderEntity = defineEntity({
  name: 'InvoiceReminder',
  tableName: 'invoice_reminder',
  uniques: [{ name: 'invoice_reminder_invoice_number_unique', properties: ['invoice_id', 'number'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    invoice_id: p.uuid(),
    number: p.integer(),
    /** YYYY-MM-DD, the organization's local day it was sent on. */
    date: p.string().length(10),
    days_after_due: p.integer(),
    fee: p.decimal('string').precision(20).scale(6).nullable(),
    fee_draft_line_id: p.uuid().nullable(),
    recipients: p.json<string[]>(),
    created_at: p.datetime(),
  },
});

export type InvoiceReminderRow = InferEntity<typeof InvoiceReminderEntity>;
