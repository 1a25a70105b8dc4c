import { describe, expect, it } from 'vitest';
import { activePaymentMethod, NO_PAYMENT_MEANS, paymentMethodCondition } from './payment-means.js';

const card = { hasActivePaymentCard: true, registeredForDirectDebit: false };
const directDebit = { hasActivePaymentCard: false, registeredForDirectDebit: true };
const both = { hasActivePaymentCard: true, registeredForDirectDebit: true };

describe('the active payment method (gaps.md §3)', () => {
  it('is the card when there is an active one, else direct debit when registered, else invoice', () => {
    expect(activePaymentMethod(both)).toBe('payment_card');
    expect(activePaymentMethod(card)).toBe('payment_card');
    expect(activePaymentMethod(directDebit)).toBe('direct_debit');
    expect(activePaymentMethod(NO_PAYMENT_MEANS)).toBe('invoice');
  });
});

describe('the filter condition derived from the rule', () => {
  it('payment_card: stored means with an active card; accounts without means are not among them', () => {
    expect(paymentMethodCondition('payment_card')).toEqual({
      means: [card, both],
      includesAccountsWithoutMeans: false,
    });
  });

  it('direct_debit: registered without a card', () => {
    expect(paymentMethodCondition('direct_debit')).toEqual({
      means: [directDebit],
      includesAccountsWithoutMeans: false,
    });
  });

  it('invoice: neither, which every account without stored means is', () => {
    expect(paymentMethodCondition('invoice')).toEqual({
      means: [NO_PAYMENT_MEANS],
      includesAccountsWithoutMeans: true,
    });
  });
});
