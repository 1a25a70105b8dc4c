/**
 * How an account pays (gaps.md §3): `payment_card` when it has an active card, else `direct_debit`
 * when it is registered for direct debit, else `invoice`. The facts belong to the payments
 * service; accounts keeps them as a read model (account_payment_means).
 */

import { COLLECTION_METHODS, type CollectionMethod } from '@billing/reference-data';

/** The values of `active_payment_method` (the collection methods). */
export const PAYMENT_METHODS = COLLECTION_METHODS;
export type PaymentMethod = CollectionMethod;

export interface PaymentMeans {
  hasActivePaymentCard: boolean;
  registeredForDirectDebit: boolean;
}

/** An account the payments service has told nothing about: no card, no direct debit. */
export const NO_PAYMENT_MEANS: PaymentMeans = { hasActivePaymentCard: false, registeredForDirectDebit: false };

export function activePaymentMethod(means: PaymentMeans): PaymentMethod {
  if (means.hasActivePaymentCard) return 'payment_card';
  if (means.registeredForDirectDebit) return 'direct_debit';
  return 'invoice';
}

/** Every combination of means, to turn the rule into a query condition (paymentMethodCondition). */
const ALL_MEANS: readonly PaymentMeans[] = [false, true].flatMap((hasActivePaymentCard) =>
  [false, true].map((registeredForDirectDebit) => ({ hasActivePaymentCard, registeredForDirectDebit })),
);

/**
 * The accounts whose active payment method is `method`, as a condition on stored means: the
 * combinations of means that give it, and whether accounts without stored means (NO_PAYMENT_MEANS)
 * are among them. Derived from activePaymentMethod, so the filter cannot drift from the rule.
 */
export function paymentMethodCondition(method: PaymentMethod): {
  means: PaymentMeans[];
  includesAccountsWithoutMeans: boolean;
} {
  return {
    means: ALL_MEANS.filter((means) => activePaymentMethod(means) === method),
    includesAccountsWithoutMeans: activePaymentMethod(NO_PAYMENT_MEANS) === method,
  };
}

export function isPaymentMethod(value: string): value is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value);
}
