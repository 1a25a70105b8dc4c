import { describe, expect, it } from 'vitest';
import { effectiveCollectionMethod } from './invoice-defaults.js';

describe('effectiveCollectionMethod', () => {
  it("is the one asked for, else the account's default, else the organization's", () => {
    expect(effectiveCollectionMethod('direct_debit', 'payment_card', 'invoice')).toBe('direct_debit');
    expect(effectiveCollectionMethod(undefined, 'payment_card', 'invoice')).toBe('payment_card');
    expect(effectiveCollectionMethod(null, null, 'direct_debit')).toBe('direct_debit');
    // proto3 leaves an unset optional text as undefined, an account without one as ''.
    expect(effectiveCollectionMethod(undefined, '', 'invoice')).toBe('invoice');
  });
});
