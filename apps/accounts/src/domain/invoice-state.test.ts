import { describe, expect, it } from 'vitest';
import {
  balanceFilterValue,
  InvalidInvoiceEvent,
  type InvoiceFacts,
  invoiceStateOf,
  supersedes,
} from './invoice-state.js';

const ORG = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const facts: InvoiceFacts = {
  uuid: 'A1B2C3D4-0000-4000-8000-000000000001',
  account: 'B1B2C3D4-0000-4000-8000-000000000002',
  status: 'open',
  currency: 'DKK',
  balance: '-25.00',
  version: 2,
};

describe('invoice state from an invoice event', () => {
  it('keeps what the balance filter and the delete rule need, uuids in lower case, the balance exact', () => {
    expect(invoiceStateOf(ORG, facts)).toEqual({
      invoiceId: 'a1b2c3d4-0000-4000-8000-000000000001',
      organizationId: ORG,
      accountId: 'b1b2c3d4-0000-4000-8000-000000000002',
      status: 'open',
      currency: 'DKK',
      balance: '-25.00',
      version: 2,
    });
  });

  it('refuses a payload without an invoice', () => {
    expect(() => invoiceStateOf(ORG, undefined)).toThrow(
      new InvalidInvoiceEvent('the invoice event carries no invoice'),
    );
  });

  it('names every unusable field; a pending invoice (version 0) is never published', () => {
    expect(() =>
      invoiceStateOf('', {
        uuid: 'inv-1',
        account: '',
        status: 'pending',
        currency: 'dkk',
        balance: '1e3',
        version: 0,
      }),
    ).toThrow(
      'Unusable invoice inv-1: organization "" is not a uuid; uuid "inv-1" is not a uuid; account "" is not a uuid; ' +
        'status "pending" is not one of open,paid,credited; currency "dkk" is not a currency code; ' +
        'balance "1e3" is not a decimal; version is missing',
    );
  });

  it('is ordered by version only: a greater one replaces, an equal or smaller one does not', () => {
    expect(supersedes({ version: 1 }, { version: 2 })).toBe(true);
    expect(supersedes({ version: 2 }, { version: 2 })).toBe(false);
    expect(supersedes({ version: 3 }, { version: 2 })).toBe(false);
    // An announcement (version 0) is replaced by the invoice's first state.
    expect(supersedes({ version: 0 }, { version: 1 })).toBe(true);
  });
});

describe('the balance filter value', () => {
  it.each([
    ['37.5', '37.5'],
    ['37.50', '37.5'],
    ['+37.5', '37.5'],
    [' 137.490 ', '137.49'],
    ['.5', '0.5'],
    ['1.', '1'],
    ['-15', '-15'],
    ['12345678901234.123456', '12345678901234.123456'],
    ['0', '0'],
    ['0.00', '0'],
    ['-0', '0'],
  ])('%j is the exact decimal %j', (text, value) => {
    expect(balanceFilterValue(text)).toBe(value);
  });

  it.each(['', 'lots', '1e3', '1,5', '0x10', 'NaN', 'Infinity', '--1', '1.2.3'])('%j is not a number', (text) => {
    expect(balanceFilterValue(text)).toBeNull();
  });
});
