import { describe, expect, it } from 'vitest';
import { addDays } from '../local-day.js';
import { dueReminder, takesReminders } from './reminder-schedule.js';

const SCHEDULE = [3, 10, 20];

describe('dueReminder', () => {
  it('owes the step reached on its day, once', () => {
    expect(dueReminder(SCHEDULE, '2026-01-29', '2026-01-31', 0)).toBeNull();
    expect(dueReminder(SCHEDULE, '2026-01-29', '2026-02-01', 0)).toEqual({ number: 1, days_after_due: 3 });
    expect(dueReminder(SCHEDULE, '2026-01-29', '2026-02-07', 1)).toBeNull();
    expect(dueReminder(SCHEDULE, '2026-01-29', '2026-02-08', 1)).toEqual({ number: 2, days_after_due: 10 });
    expect(dueReminder(SCHEDULE, '2026-01-29', '2026-02-18', 2)).toEqual({ number: 3, days_after_due: 20 });
    expect(dueReminder(SCHEDULE, '2026-01-29', '2026-12-31', 3)).toBeNull();
  });

  it('gives one reminder, the latest, when several steps were reached together', () => {
    expect(dueReminder(SCHEDULE, '2026-01-29', '2026-02-20', 0)).toEqual({ number: 3, days_after_due: 20 });
    expect(dueReminder(SCHEDULE, '2026-01-29', '2026-02-10', 0)).toEqual({ number: 2, days_after_due: 10 });
  });

  it('owes nothing on an empty schedule', () => {
    expect(dueReminder([], '2026-01-29', '2027-01-01', 0)).toBeNull();
  });
});

describe('takesReminders', () => {
  const open = { status: 'open', collection_method: 'invoice', is_credit_note: false };
  it('reminds open invoices collected by invoice of accounts getting reminders', () => {
    expect(takesReminders(open, true)).toBe(true);
    expect(takesReminders(open, false)).toBe(false);
    expect(takesReminders({ ...open, status: 'paid' }, true)).toBe(false);
    expect(takesReminders({ ...open, status: 'credited' }, true)).toBe(false);
    expect(takesReminders({ ...open, collection_method: 'payment_card' }, true)).toBe(false);
    expect(takesReminders({ ...open, is_credit_note: true }, true)).toBe(false);
  });
});

describe('addDays', () => {
  it('crosses months and leap days', () => {
    expect(addDays('2026-01-29', 3)).toBe('2026-02-01');
    expect(addDays('2028-02-27', 2)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
