import { describe, expect, it } from 'vitest';
import { resellerInvoicePlan } from './reseller-invoice.js';

const resold = { account_id: 'resold-1', code: 'shop-1' };
const reseller = {
  account_id: 'reseller-1',
  payment_terms: null,
  collection_method: null,
  reseller_billing_frequency: 'end_of_month',
  reseller_billing_grouping: 'currency',
};
const seller = {
  time_zone: 'Europe/Copenhagen',
  default_payment_terms: 14,
  default_collection_method: 'invoice',
  test_clock_time: null,
};

describe('resellerInvoicePlan', () => {
  it('dates the invoice on the collection day, due after the reseller’s terms, issued when the day ends locally', () => {
    const plan = resellerInvoicePlan(
      { currency: 'DKK', po_number: 'PO-9' },
      resold,
      { ...reseller, payment_terms: 30, collection_method: 'payment_card' },
      seller,
      '2026-01-15',
    );
    expect(plan).toEqual({
      group_key: JSON.stringify(['reseller', 'reseller-1', '2026-01-31', 'DKK']),
      date: '2026-01-31',
      due_date: '2026-03-02',
      payment_terms: 30,
      collection_method: 'payment_card',
      po_number: '',
      issue_after: new Date('2026-01-31T23:00:00.000Z'),
      line_account: { id: 'resold-1', code: 'shop-1' },
    });
  });

  it('falls back to the organization’s terms and collection method; on a test clock the advance issues it', () => {
    const plan = resellerInvoicePlan(
      { currency: 'EUR', po_number: 'PO-9' },
      resold,
      {
        ...reseller,
        reseller_billing_frequency: 'daily',
        reseller_billing_grouping: 'currency_resold_account_po_number',
      },
      { ...seller, test_clock_time: new Date('2026-01-15T10:00:00Z') },
      '2026-01-15',
    );
    expect(plan).toMatchObject({
      group_key: JSON.stringify(['reseller', 'reseller-1', '2026-01-15', 'EUR', 'resold-1', 'PO-9']),
      date: '2026-01-15',
      due_date: '2026-01-29',
      payment_terms: 14,
      collection_method: 'invoice',
      po_number: 'PO-9',
      issue_after: null,
    });
  });
});
