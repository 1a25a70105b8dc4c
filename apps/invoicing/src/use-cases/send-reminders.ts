import { randomUUID } from 'node:crypto';
import { StatusCode } from '@billing/errors';
import type { Logger, RequestContext } from '@billing/observability';
import { type ChangeScope, orgNow, requireOrganization, runChange } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import { InvoiceEntity, type InvoiceRow } from '../db/entities/invoice.entity.js';
import { InvoiceReminderEntity } from '../db/entities/invoice-reminder.entity.js';
import { lastReminderNumbers, organizationsWithInvoicesDueBefore } from '../db/reminder-store.js';
import type { Buyer, Seller } from '../domain/directory.js';
import { documentLanguage, text } from '../domain/language/texts.js';
import { addDays, localDay } from '../domain/local-day.js';
import { type DueReminder, dueReminder, takesReminders } from '../domain/reminders/reminder-schedule.js';
import type { InvoicingDeps } from './deps.js';
import { addDraftLine } from './draft-lines.js';
import { publishInvoiceChange } from './invoice-change.js';
import { queueInvoiceMail, systemContext } from './issue-invoices.js';

/**
 * Sends the payment reminders of the organization (`context`'s) that fell due by its "now" (a
 * test clock's time, else the service clock) on its reminder schedule: for each open invoice
 * collected by invoice, past its due date, of an account getting reminders and with recipients
 * of invoices, at most one reminder per call (reminder-schedule.ts). Each reminder is one change:
 * its row, its e-mail job (sent by the mail worker), invoice.reminder_sent and its fee's draft
 * line commit together, and the invoice's row lock with the (invoice, number) key keeps it to
 * once. Returns how many were sent.
 */
export async function sendDueReminders(deps: InvoicingDeps, context: RequestContext): Promise<number> {
  const organizationId = requireOrganization(context);
  const seller = await deps.directory.seller(context);
  const schedule = seller.reminder_schedule_days;
  if (schedule.length === 0) return 0;
  const today = localDay(orgNow(deps.clock, context), seller.time_zone);
  const candidates = await deps.orm.em.fork().find(
    InvoiceEntity,
    {
      organization_id: organizationId,
      status: 'open',
      collection_method: 'invoice',
      is_credit_note: false,
      due_date: { $lte: addDays(today, -schedule[0]!) },
    },
    { orderBy: [{ due_date: 'asc' }, { invoice_number: 'asc' }] },
  );
  // Only the invoices owed a reminder today go on (one query for the reminders already sent):
  // an old unpaid invoice past its last step costs neither a transaction nor a look-up per pass.
  const sentSoFar = await lastReminderNumbers(
    deps.orm.em.fork(),
    candidates.map((candidate) => candidate.id),
  );
  const owed = candidates.filter(
    (candidate) => dueReminder(schedule, candidate.due_date, today, sentSoFar.get(candidate.id) ?? 0) !== null,
  );
  const buyers = new Map<string, Buyer | null>();
  let sent = 0;
  for (const candidate of owed) {
    let buyer = buyers.get(candidate.account_id);
    if (buyer === undefined) {
      buyer = await buyerOrNull(deps, context, candidate.account_id);
      buyers.set(candidate.account_id, buyer);
    }
    // No one to remind (an account gone, or without recipients of invoices): nothing is sent, nor charged.
    if (buyer === null || buyer.recipients.length === 0) continue;
    const reminded = await runChange(deps, 'invoicing', context, (scope) =>
      remindOnce(scope, candidate.id, seller, buyer, today),
    );
    if (reminded) sent += 1;
  }
  return sent;
}

/** The reminder owed on `today`, recorded, queued and published; false when none is owed (any more). */
async function remindOnce(
  scope: ChangeScope,
  invoiceId: string,
  seller: Seller,
  buyer: Buyer,
  today: string,
): Promise<boolean> {
  const row = await scope.em.findOneOrFail(
    InvoiceEntity,
    { id: invoiceId, organization_id: scope.organizationId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  // Settled (or moved to a card) since the candidates were read: no reminder.
  if (!takesReminders(row, buyer.is_getting_reminders)) return false;
  const last = await scope.em.findOne(InvoiceReminderEntity, { invoice_id: row.id }, { orderBy: [{ number: 'desc' }] });
  const due = dueReminder(seller.reminder_schedule_days, row.due_date, today, last?.number ?? 0);
  if (due === null) return false;
  const reminderId = randomUUID();
  const feeLine = seller.reminder_fee === '' ? null : await addFeeLine(scope, row, seller.reminder_fee);
  scope.em.create(InvoiceReminderEntity, {
    id: reminderId,
    organization_id: scope.organizationId,
    invoice_id: row.id,
    number: due.number,
    date: today,
    days_after_due: due.days_after_due,
    fee: feeLine === null ? null : seller.reminder_fee,
    fee_draft_line_id: feeLine,
    recipients: buyer.recipients.map((recipient) => recipient.email),
    created_at: scope.now,
  });
  queueInvoiceMail(scope, row.id, buyer.recipients, seller.party.email, reminderId);
  await scope.em.flush();
  scope.audit('invoice.reminder', 'invoice', row.id, reminderDetails(due, buyer, feeLine));
  await publishInvoiceChange(scope, 'invoice.reminder_sent', row);
  return true;
}

/**
 * The fee as a draft line of the invoice's account in its currency (docs/api.md "Payment
 * reminders"): outside the scope of VAT (a reminder fee is compensation, not a supply), invoiced
 * when the organization next invoices the account's lines. Returns its uuid.
 */
async function addFeeLine(scope: ChangeScope, invoice: InvoiceRow, fee: string): Promise<string> {
  const language = documentLanguage(invoice.language);
  const values = {
    account: invoice.account_id,
    description: text(language, 'reminderFeeLine', { number: String(invoice.invoice_number) }),
    vat_type: 'services',
    collect_vat: false,
    price: fee,
    quantity: '1',
    currency: invoice.currency,
  };
  const line = await addDraftLine(scope, { values, present: new Set(Object.keys(values)) });
  return line.uuid;
}

function reminderDetails(due: DueReminder, buyer: Buyer, feeLine: string | null): Record<string, unknown> {
  return { ...due, recipients: buyer.recipients.map((recipient) => recipient.email), fee_draft_line: feeLine };
}

async function buyerOrNull(deps: InvoicingDeps, context: RequestContext, accountId: string): Promise<Buyer | null> {
  try {
    return await deps.directory.buyer(context, accountId);
  } catch (error) {
    if ((error as { code?: number }).code === StatusCode.NOT_FOUND) return null;
    throw error;
  }
}

/**
 * The worker's pass: the reminders of every organization on the real clock with an open invoice
 * collected by invoice past its due date. Test-clock organizations are reminded by their clock's
 * advance (SendDueReminders), on their own time.
 */
export async function sendDueRemindersEverywhere(deps: InvoicingDeps, logger: Logger): Promise<number> {
  // Due by tomorrow in UTC: every time zone's today is at most a day ahead of UTC's.
  const tomorrow = addDays(deps.clock.now().toISOString().slice(0, 10), 1);
  const organizations = await organizationsWithInvoicesDueBefore(deps.orm.em.fork(), tomorrow);
  let sent = 0;
  for (const organizationId of organizations) {
    const context = systemContext(organizationId, `reminders-${randomUUID()}`);
    try {
      const seller = await deps.directory.seller(context);
      if (seller.test_clock_time !== null) continue;
      sent += await sendDueReminders(deps, context);
    } catch (error) {
      // One organization's failure (its accounts unreachable a moment) must not hold the others up.
      logger.warn({ err: error, organization: organizationId }, 'payment reminders failed; will retry');
    }
  }
  return sent;
}
