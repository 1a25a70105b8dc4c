import { describe, expect, it } from 'vitest';
import { chargeableCard, expiresInMonthOf, maskedCardNumber } from './payment-card.js';

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

  it('knows the month a card expires in', () => {
    expect(expiresInMonthOf({ month: 3, year: 2026 }, '2026-03-01')).toBe(true);
    expect(expiresInMonthOf({ month: 3, year: 2026 }, '2026-02-28')).toBe(false);
    expect(expiresInMonthOf({ month: 3, year: 2027 }, '2026-03-01')).toBe(false);
  });
});
