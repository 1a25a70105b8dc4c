import { describe, expect, it } from 'vitest';
import { type BankAccountSnapshot, payToBankAccount } from './bank-account.js';

const account = (id: number, currency: string | null): BankAccountSnapshot => ({
  id,
  currency,
  iban: '',
  bic: '',
  reg_number: '1234',
  account_number: String(id),
});

describe('payToBankAccount', () => {
  it("takes the account of the invoice's currency, else the one for every other currency, else none", () => {
    const accounts = [account(1, null), account(2, 'EUR'), account(3, 'DKK')];
    expect(payToBankAccount(accounts, 'DKK')?.id).toBe(3);
    expect(payToBankAccount(accounts, 'EUR')?.id).toBe(2);
    expect(payToBankAccount(accounts, 'SEK')?.id).toBe(1);
    expect(payToBankAccount([account(2, 'EUR')], 'SEK')).toBeNull();
    expect(payToBankAccount([], 'DKK')).toBeNull();
  });
});
