import { addDays } from '../local-day.js';

/** The reminder an open invoice is owed now, if any. */
export interface DueReminder {
  /** 1 for the invoice's first reminder, 2 for the second, ... */
  number: number;
  /** Days after the due date, as the schedule says. */
  days_after_due: number;
}

/**
 * The payment reminder an invoice is owed on `today` (the organization's local day): the latest
 * step of `scheduleDays` (days after `dueDate`, ascending) that has been reached and is past the
 * `sent` reminders already recorded. Steps reached together (a server down for days, a test clock
 * moved a month) give one reminder, the latest, numbered after its step: a customer gets one
 * e-mail (and one fee), never a burst. Null: nothing owed.
 */
export function dueReminder(
  scheduleDays: readonly number[],
  dueDate: string,
  today: string,
  sent: number,
): DueReminder | null {
  let reached = 0;
  for (const [index, days] of scheduleDays.entries()) {
    if (addDays(dueDate, days) <= today) reached = index + 1;
  }
  if (reached <= sent) return null;
  return { number: reached, days_after_due: scheduleDays[reached - 1]! };
}

/**
 * Whether an invoice is reminded at all: open with a balance still owed, collected by invoice
 * (cards and direct debit are collected by dunning), not a credit note, and its account takes
 * reminders (is_getting_reminders).
 */
export function takesReminders(
  invoice: { status: string; collection_method: string; is_credit_note: boolean },
  isGettingReminders: boolean,
): boolean {
  return (
    isGettingReminders &&
    invoice.status === 'open' &&
    invoice.collection_method === 'invoice' &&
    !invoice.is_credit_note
  );
}
