import { describe, expect, it } from 'vitest';
import { type EmbeddingSubscription, subscriptionSetNeeds } from './subscription-set-embeds.js';

const fields = (code: string, paymentTerms: number | null) => ({
  code,
  company_name: null,
  first_name: null,
  middle_name: null,
  last_name: null,
  type: null,
  default_payment_terms: paymentTerms,
});

const subscription = (account: string, extra: Partial<EmbeddingSubscription> = {}): EmbeddingSubscription => ({
  account,
  churn_reason: null,
  payment_terms: null,
  ...extra,
});

describe('subscriptionSetNeeds', () => {
  it('needs nothing when no account has subscriptions', () => {
    expect(
      subscriptionSetNeeds([
        { uuid: 'a1', fields: fields('one', null), subscriptions: [] },
        { uuid: 'a2', fields: fields('two', 10), subscriptions: [] },
      ]),
    ).toEqual({ accounts: [], churnReasonIds: [], organizationPaymentTerms: false });
  });

  it('summarises only subscribed accounts and names each churn reason once, in the order first named', () => {
    const needs = subscriptionSetNeeds([
      { uuid: 'a1', fields: fields('one', 10), subscriptions: [subscription('a1', { churn_reason: 'r2' })] },
      { uuid: 'a2', fields: fields('two', null), subscriptions: [] },
      {
        uuid: 'a3',
        fields: fields('three', null),
        subscriptions: [
          subscription('a3', { churn_reason: 'r1', payment_terms: 5 }),
          subscription('a3', { churn_reason: 'r2', payment_terms: 0 }),
        ],
      },
    ]);

    expect(needs).toEqual({
      accounts: [
        { uuid: 'a1', code: 'one', display_name: 'one', company_name: null, type: 'person', payment_terms: 10 },
        { uuid: 'a3', code: 'three', display_name: 'three', company_name: null, type: 'person', payment_terms: null },
      ],
      churnReasonIds: ['r2', 'r1'],
      // a1's subscription takes its account's terms; a3's have their own (0 is set, not unset).
      organizationPaymentTerms: false,
    });
  });

  it("needs the organization's terms when a subscription and its account both leave them unset", () => {
    const needs = subscriptionSetNeeds([
      { uuid: 'a1', fields: fields('one', 10), subscriptions: [subscription('a1')] },
      {
        uuid: 'a2',
        fields: fields('two', null),
        subscriptions: [subscription('a2', { payment_terms: 7 }), subscription('a2')],
      },
    ]);

    expect(needs.organizationPaymentTerms).toBe(true);
  });
});
