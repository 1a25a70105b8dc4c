import { StatusCode } from '@billing/errors';
import { describe, expect, it } from 'vitest';
import { checkAccountListFilter } from './account-list.js';

describe('the account list filter, checked', () => {
  it('keeps what it does not check, normalizes balance and keeps a valid payment method', () => {
    expect(checkAccountListFilter({ code: 'a', balance: '137.490', active_payment_method: 'invoice' })).toEqual({
      code: 'a',
      balance: '137.49',
      active_payment_method: 'invoice',
    });
    expect(checkAccountListFilter({ balance: '-0.00' })).toEqual({ balance: '0' });
  });

  it('refuses a balance that is not a number and an unknown payment method, naming the filter', () => {
    expect(() => checkAccountListFilter({ balance: 'lots' })).toThrow(
      expect.objectContaining({
        code: StatusCode.INVALID_ARGUMENT,
        fieldViolations: [{ field: 'balance', description: 'Enter a number.' }],
      }),
    );
    expect(() => checkAccountListFilter({ active_payment_method: 'cash' })).toThrow(
      expect.objectContaining({
        fieldViolations: [
          {
            field: 'active_payment_method',
            description: 'Select a valid choice. cash is not one of the available choices.',
          },
        ],
      }),
    );
  });
});
