import { describe, expect, it } from 'vitest';
import { isChargeable } from './card-invoice.js';

const invoice = {
  invoiceId: 'i',
  accountId: 'a',
  invoiceNumber: '1',
  status: 'open',
  collectionMethod: 'payment_card',
  isCreditNote: false,
  balance: '125.00',
  currency: 'DKK',
  issuedAt: null,
};

describe('card invoices', () => {
  it('charges open card invoices that owe something', () => {
    expect(isChargeable(invoice)).toBe(true);
  });

  it('leaves other collection methods, settled invoices, credit notes and zero balances alone', () => {
    expect(isChargeable({ ...invoice, collectionMethod: 'invoice' })).toBe(false);
    expect(isChargeable({ ...invoice, status: 'paid' })).toBe(false);
    expect(isChargeable({ ...invoice, isCreditNote: true, balance: '-125.00' })).toBe(false);
    expect(isChargeable({ ...invoice, balance: '0.00' })).toBe(false);
  });
});
