import { describe, expect, it } from 'vitest';
import {
  type BankAccountDetails,
  ibanChecksumValid,
  normalizeBankAccount,
  validateBankAccount,
} from './bank-account.js';

const none = { currency: null, iban: '', bic: '', reg_number: '', account_number: '' };
const details = (given: Partial<BankAccountDetails>): BankAccountDetails => normalizeBankAccount({ ...none, ...given });

describe('bank accounts', () => {
  it('checks IBAN check digits (ISO 13616 mod 97)', () => {
    // Published example IBANs.
    expect(ibanChecksumValid('DK5000400440116243')).toBe(true);
    expect(ibanChecksumValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanChecksumValid('DE89370400440532013000')).toBe(true);
    // One digit changed, two digits swapped.
    expect(ibanChecksumValid('DK5000400440116244')).toBe(false);
    expect(ibanChecksumValid('DK5000400440116234')).toBe(false);
  });

  it('stores an IBAN without spaces and upper case, and takes IBAN with BIC', () => {
    const account = details({ iban: 'dk50 0040 0440 1162 43', bic: 'dabadkkk', currency: 'eur' });
    expect(account).toEqual({
      currency: 'EUR',
      iban: 'DK5000400440116243',
      bic: 'DABADKKK',
      reg_number: '',
      account_number: '',
    });
    expect(validateBankAccount(account, [])).toEqual([]);
    expect(validateBankAccount(details({ iban: 'GB82WEST12345698765432', bic: 'NWBKGB2LXXX' }), [])).toEqual([]);
  });

  it('takes a Danish reg. no. (4 digits) with an account no. (up to 10 digits)', () => {
    expect(validateBankAccount(details({ reg_number: '1234', account_number: '0001234567' }), [])).toEqual([]);
    expect(validateBankAccount(details({ reg_number: '5301', account_number: '1' }), [])).toEqual([]);
    expect(validateBankAccount(details({ reg_number: '123', account_number: '12345678901' }), [])).toEqual([
      { field: 'reg_number', description: 'Enter the 4 digits of the registration number.' },
      { field: 'account_number', description: 'Enter an account number of 1 to 10 digits.' },
    ]);
    expect(validateBankAccount(details({ reg_number: '12a4', account_number: '' }), [])).toEqual([
      { field: 'reg_number', description: 'Enter the 4 digits of the registration number.' },
      { field: 'account_number', description: 'Enter an account number of 1 to 10 digits.' },
    ]);
  });

  it('names a bad IBAN, a bad BIC and a missing half', () => {
    expect(validateBankAccount(details({ iban: 'DK5000400440116244', bic: 'DABADKKK' }), [])).toEqual([
      { field: 'iban', description: 'The IBAN check digits do not match: check the number.' },
    ]);
    expect(validateBankAccount(details({ iban: 'XX5000400440116243', bic: 'DABA DK' }), [])).toEqual([
      {
        field: 'iban',
        description: 'Enter a valid IBAN: a country code, two check digits and up to 30 letters or digits.',
      },
      {
        field: 'bic',
        description: 'Enter a valid BIC: 8 or 11 letters and digits (bank, country, location, branch).',
      },
    ]);
    expect(validateBankAccount(details({ iban: 'DK5000400440116243' }), [])).toEqual([
      { field: 'bic', description: 'This field is required with --iban.' },
    ]);
    expect(validateBankAccount(details({ bic: 'DABADKKK' }), [])).toEqual([
      { field: 'iban', description: 'This field is required with --bic.' },
    ]);
  });

  it('takes exactly one form', () => {
    expect(validateBankAccount(details({}), [])).toEqual([
      { field: 'non_field_errors', description: 'Give --iban and --bic, or --reg-number and --account-number.' },
    ]);
    expect(
      validateBankAccount(details({ iban: 'DK5000400440116243', bic: 'DABADKKK', reg_number: '1234' }), []),
    ).toEqual([
      {
        field: 'non_field_errors',
        description: 'Give either --iban and --bic or --reg-number and --account-number, not both.',
      },
    ]);
  });

  it('allows one bank account per currency and one for every other currency', () => {
    const taken = [
      { id: 1, currency: null },
      { id: 2, currency: 'EUR' },
    ];
    const danish = { reg_number: '1234', account_number: '1234567890' };
    expect(validateBankAccount(details({ ...danish, currency: 'DKK' }), taken)).toEqual([]);
    expect(validateBankAccount(details({ ...danish, currency: 'EUR' }), taken)).toEqual([
      { field: 'currency', description: 'Bank account 2 already takes payments in EUR; remove it first.' },
    ]);
    expect(validateBankAccount(details(danish), taken)).toEqual([
      {
        field: 'currency',
        description: 'Bank account 1 already takes payments in every other currency; remove it first.',
      },
    ]);
    expect(validateBankAccount(details({ ...danish, currency: 'JPY' }), [])).toEqual([
      { field: 'currency', description: '"JPY" is not a valid choice.' },
    ]);
  });
});
