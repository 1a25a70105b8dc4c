import { describe, expect, it } from 'vitest';
import { chargeableCard, expiryMonth, expiryNotice, maskedCardNumber } from './payment-card.js';

describe('payment cards', () => {
  it('masks all but the last four digits', () => {
    expect(maskedCardNumber('4242')).toBe('**** **** **** 4242');
  });

  it('charges the newest active card, and none when no card is active', () => {
    const card = (uuid: string, created: string, active = true) => ({ uuid, active, created_date: new Date(created) });
    const old = card('b', '2026-01-01T00:00:00Z');
    const newer = card('a', '2026-01-02T00:00:00Z');
    const newestDisabled = card('c', '2026-01-03T00:00:00Z', false);
    expect(chargeableCard([old, newer, newestDisabled])).toBe(newer);
    const twin = card('z', '2026-01-02T00:00:00Z');
    expect(chargeableCard([twin, newer])).toBe(twin);
    expect(chargeableCard([newestDisabled])).toBeNull();
    expect(chargeableCard([])).toBeNull();
  });

  it('tells of a card expiring on the first day of its expiry month, on the organization wall clock', () => {
    const card = { month: 3, year: 2026, created_at: new Date('2025-06-01T00:00:00Z') };
    expect(expiryMonth(card)).toBe('2026-03');
    // Copenhagen's 1 March starts at 23:00 UTC on 28 February.
    const at = new Date('2026-02-28T23:00:00.000Z');
    expect(expiryNotice(card, 'Europe/Copenhagen', new Date('2026-02-28T22:59:59.999Z'))).toEqual({ kind: 'not_yet' });
    expect(expiryNotice(card, 'Europe/Copenhagen', at)).toEqual({ kind: 'due', at });
    // A clock moved past it still tells, dated the first instant of the month.
    expect(expiryNotice(card, 'Europe/Copenhagen', new Date('2026-05-10T00:00:00Z'))).toEqual({ kind: 'due', at });
    expect(expiryNotice({ ...card, month: 4 }, 'America/New_York', new Date('2026-04-01T04:00:00Z'))).toEqual({
      kind: 'due',
      at: new Date('2026-04-01T04:00:00.000Z'),
    });
    // Registered after that instant: there was no first day of the month to tell it on.
    expect(
      expiryNotice({ ...card, created_at: new Date('2026-03-10T00:00:00Z') }, 'Europe/Copenhagen', new Date()),
    ).toEqual({ kind: 'passed' });
  });
});
