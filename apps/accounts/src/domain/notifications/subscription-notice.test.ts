import { describe, expect, it } from 'vitest';
import { formatAmount, localDay, noticeKindOf, noticeLanguage, subscriptionNotice } from './subscription-notice.js';

const monthly = { amount: '1250.00', currency: 'DKK', interval_type: 'month', interval_count: 1 };

describe('noticeKindOf', () => {
  it('announces a start, a decided change or cancellation and a reactivation, once each', () => {
    expect(noticeKindOf('created', '')).toBeNull();
    expect(noticeKindOf('activated', '')).toBe('started');
    expect(noticeKindOf('change_scheduled', 'at_renewal')).toBe('changed');
    expect(noticeKindOf('changed', 'immediate')).toBe('changed');
    // The scheduled change taking effect was announced when it was decided.
    expect(noticeKindOf('changed', 'at_renewal')).toBeNull();
    expect(noticeKindOf('changed', 'at_specified_time')).toBeNull();
    expect(noticeKindOf('cancelled', '')).toBe('cancelled');
    expect(noticeKindOf('cancellation_scheduled', '')).toBe('cancelled');
    expect(noticeKindOf('reactivated', '')).toBe('reactivated');
    for (const change of ['updated', 'renewed', 'expired', 'pending_manual_renewal', 'renewed_manually']) {
      expect(noticeKindOf(change, '')).toBeNull();
    }
  });
});

describe('subscriptionNotice', () => {
  const facts = {
    language: 'en' as const,
    organization: 'Nordlys ApS',
    plan: 'Pro',
    date: '2026-02-15',
    quantity: 5,
    price: monthly,
    next_renewal: '2026-03-15',
  };

  it('writes the start in English with quantity, price per period and next renewal', () => {
    expect(subscriptionNotice({ ...facts, kind: 'started' })).toEqual({
      subject: 'Your subscription to Pro has started',
      text:
        'Hello,\n\nYour subscription to Pro started on 2026-02-15.\n\n' +
        'Quantity: 5\nPrice: 1,250.00 DKK per month\nNext renewal: 2026-03-15\n\nKind regards,\nNordlys ApS\n',
    });
  });

  it('writes a change as before → after, from its day, in Danish with every 3 months', () => {
    const quarterly = { ...monthly, interval_count: 3 };
    expect(
      subscriptionNotice({
        ...facts,
        language: 'da',
        kind: 'changed',
        price: quarterly,
        before: { quantity: 2, price: { ...quarterly, amount: '500.00' } },
      }),
    ).toEqual({
      subject: 'Dit abonnement på Pro ændres den 2026-02-15',
      text:
        'Hej,\n\nDit abonnement på Pro ændres fra den 2026-02-15:\n\n' +
        'Antal: 2 → 5\nPris: 500,00 DKK → 1.250,00 DKK pr. 3 måneder\n\nVenlig hilsen\nNordlys ApS\n',
    });
  });

  it('writes the renewal, the cancellation and the reactivation in English', () => {
    expect(subscriptionNotice({ ...facts, kind: 'renews_soon' }).text).toBe(
      'Hello,\n\nYour subscription to Pro renews on 2026-02-15.\n\nQuantity: 5\nPrice: 1,250.00 DKK per month\n\nKind regards,\nNordlys ApS\n',
    );
    expect(subscriptionNotice({ ...facts, kind: 'cancelled' })).toEqual({
      subject: 'Your subscription to Pro has been cancelled',
      text: 'Hello,\n\nYour subscription to Pro has been cancelled. It ends on 2026-02-15.\n\nKind regards,\nNordlys ApS\n',
    });
    expect(subscriptionNotice({ ...facts, kind: 'reactivated' })).toEqual({
      subject: 'Your subscription to Pro has been reactivated',
      text: 'Hello,\n\nYour subscription to Pro continues from 2026-02-15.\n\nNext renewal: 2026-03-15\n\nKind regards,\nNordlys ApS\n',
    });
  });
});

describe('helpers', () => {
  it('writes amounts the language’s way, days in the time zone, and English for other languages', () => {
    expect(formatAmount('1234567.50', 'da')).toBe('1.234.567,50');
    expect(formatAmount('-1234.5', 'en')).toBe('-1,234.5');
    expect(formatAmount('100', 'en')).toBe('100');
    expect(localDay(new Date('2026-01-31T23:30:00Z'), 'Europe/Copenhagen')).toBe('2026-02-01');
    expect(noticeLanguage('da-DK')).toBe('da');
    expect(noticeLanguage('de')).toBe('en');
    expect(noticeLanguage('')).toBe('en');
  });
});
