import { describe, expect, it } from 'vitest';
import {
  collectionEnded,
  dayAfter,
  isResellerGroupKey,
  type ResellerBillingFrequency,
  resellerBillingFrequency,
  resellerBillingGrouping,
  resellerCollectionDay,
  resellerGroupKey,
  resellerInvoicePoNumber,
} from './reseller-billing.js';

// 2026-01-01 is a Thursday; 2026-01-04 a Sunday, 2026-01-05 a Monday.
const collect = (frequency: ResellerBillingFrequency, days: string[]) =>
  days.map((day) => resellerCollectionDay(day, frequency));

describe('resellerCollectionDay', () => {
  it('daily: the line’s own day', () => {
    expect(collect('daily', ['2026-01-01', '2026-01-31', '2026-02-28'])).toEqual([
      '2026-01-01',
      '2026-01-31',
      '2026-02-28',
    ]);
  });

  it('end_of_week: the Sunday on or after the line’s day', () => {
    expect(collect('end_of_week', ['2026-01-01', '2026-01-04', '2026-01-05', '2026-12-28'])).toEqual([
      '2026-01-04',
      '2026-01-04',
      '2026-01-11',
      '2027-01-03',
    ]);
  });

  it('start_of_week: the Monday on or after the line’s day', () => {
    expect(collect('start_of_week', ['2026-01-01', '2026-01-04', '2026-01-05', '2026-01-06'])).toEqual([
      '2026-01-05',
      '2026-01-05',
      '2026-01-05',
      '2026-01-12',
    ]);
  });

  it('end_of_month: the month’s last day, leap years included', () => {
    expect(collect('end_of_month', ['2026-01-01', '2026-01-31', '2026-02-15', '2028-02-01', '2026-12-31'])).toEqual([
      '2026-01-31',
      '2026-01-31',
      '2026-02-28',
      '2028-02-29',
      '2026-12-31',
    ]);
  });

  it('start_of_month: the 1st on or after the line’s day', () => {
    expect(collect('start_of_month', ['2026-01-01', '2026-01-02', '2026-01-31', '2026-12-15'])).toEqual([
      '2026-01-01',
      '2026-02-01',
      '2026-02-01',
      '2027-01-01',
    ]);
  });

  it('start_and_end_of_month: the 1st for the 1st’s lines, the month’s last day for the others', () => {
    expect(
      collect('start_and_end_of_month', ['2026-01-01', '2026-01-02', '2026-01-31', '2026-02-01', '2026-02-10']),
    ).toEqual(['2026-01-01', '2026-01-31', '2026-01-31', '2026-02-01', '2026-02-28']);
  });
});

describe('the reseller’s settings', () => {
  it('default to end_of_month and currency grouping when unset', () => {
    expect([resellerBillingFrequency(null), resellerBillingFrequency(''), resellerBillingFrequency('daily')]).toEqual([
      'end_of_month',
      'end_of_month',
      'daily',
    ]);
    expect([resellerBillingGrouping(undefined), resellerBillingGrouping('currency_resold_account')]).toEqual([
      'currency',
      'currency_resold_account',
    ]);
  });
});

describe('collection ends with its day', () => {
  it('is due once the organization’s day is past the collection day', () => {
    expect(dayAfter('2026-01-31')).toBe('2026-02-01');
    expect(dayAfter('2026-12-31')).toBe('2027-01-01');
    expect([collectionEnded('2026-01-31', '2026-01-31'), collectionEnded('2026-01-31', '2026-02-01')]).toEqual([
      false,
      true,
    ]);
  });
});

describe('resellerGroupKey', () => {
  const line = {
    reseller: 'r',
    collection_day: '2026-01-31',
    currency: 'DKK',
    resold_account: 'a',
    po_number: 'PO-1',
  };

  it('currency: every resold account and PO number of the day and currency share one key', () => {
    const key = resellerGroupKey(line, 'currency');
    expect(resellerGroupKey({ ...line, resold_account: 'b', po_number: 'PO-2' }, 'currency')).toBe(key);
    expect(resellerGroupKey({ ...line, currency: 'EUR' }, 'currency')).not.toBe(key);
    expect(resellerGroupKey({ ...line, collection_day: '2026-02-28' }, 'currency')).not.toBe(key);
    expect(resellerGroupKey({ ...line, reseller: 'other' }, 'currency')).not.toBe(key);
  });

  it('currency_resold_account: one key per resold account, PO numbers together', () => {
    const key = resellerGroupKey(line, 'currency_resold_account');
    expect(resellerGroupKey({ ...line, po_number: 'PO-2' }, 'currency_resold_account')).toBe(key);
    expect(resellerGroupKey({ ...line, resold_account: 'b' }, 'currency_resold_account')).not.toBe(key);
  });

  it('currency_resold_account_po_number: one key per resold account and PO number', () => {
    const key = resellerGroupKey(line, 'currency_resold_account_po_number');
    expect(resellerGroupKey({ ...line, po_number: 'PO-2' }, 'currency_resold_account_po_number')).not.toBe(key);
    expect(resellerGroupKey({ ...line }, 'currency_resold_account_po_number')).toBe(key);
  });

  it('is told apart from the grouped renewal invoices’ keys', () => {
    expect(isResellerGroupKey(resellerGroupKey(line, 'currency'))).toBe(true);
    expect(isResellerGroupKey(JSON.stringify(['reseller-account-uuid', '2026-01-31']))).toBe(false);
    expect(isResellerGroupKey(null)).toBe(false);
  });

  it('the invoice shows a PO number only when grouped by it', () => {
    expect(resellerInvoicePoNumber('PO-1', 'currency_resold_account_po_number')).toBe('PO-1');
    expect(resellerInvoicePoNumber('PO-1', 'currency_resold_account')).toBe('');
  });
});
