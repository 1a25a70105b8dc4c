import { accountsV1, invoicingV1, paymentsV1, subscriptionsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { embeddingFacts, encodeGetAccountResponse, withStoredSets } from './stored-account-sets.js';

const ACCOUNT = '6b0c4a52-2f55-4c1b-9d0e-0f4f7c1c2a01';

function subscription(overrides: Partial<subscriptionsV1.Subscription> = {}): subscriptionsV1.Subscription {
  return subscriptionsV1.Subscription.fromPartial({
    uuid: 'a1f0c0de-0000-4000-8000-000000000001',
    account: ACCOUNT,
    terms: {
      uuid: 't1',
      plan: 'p1',
      code: 'monthly',
      interval_type: 'month',
      interval_count: 1,
      price: '100.00',
      currency: 'DKK',
      backwards_charging: true,
      active: true,
    },
    plan: { uuid: 'p1', name: 'Pro', code: 'pro', collect_vat: true, vat_type: 'services' },
    start_date: new Date('2026-11-26T00:00:00.000Z'),
    created_date: new Date('2026-11-26T04:00:00.123Z'),
    last_modified_date: new Date('2026-11-26T04:00:00.123Z'),
    next_renewal_date: new Date('2026-12-26T00:00:00.000Z'),
    original_start_date: new Date('2026-11-26T00:00:00.000Z'),
    quantity: 3,
    collection_method: 'invoice',
    status: 'active',
    current_mrr: '300.00',
    committed_mrr: '300.00',
    final_price: '300.00',
    custom_fields: { project: 'x', nested: { a: [1, 'b'] } },
    scheduled_changes: [
      { uuid: 'c1', date: new Date('2027-01-01T00:00:00Z'), terms: 't2', quantity: 2, change_type: 'upgrade' },
    ],
    version: 4,
    ...overrides,
  });
}

const line = invoicingV1.DraftLine.fromPartial({
  uuid: 'd1',
  account: ACCOUNT,
  description: 'Setup fee',
  vat_type: 'services',
  price: '500.00',
  quantity: '1',
  discount_percentage: '10',
  currency: 'DKK',
  created_date: new Date('2026-11-26T04:00:01Z'),
  custom_fields: { project: 'bench' },
  version: 1,
});
const card = paymentsV1.PaymentCard.fromPartial({
  uuid: 'c1',
  account: ACCOUNT,
  active: true,
  brand: 'visa',
  card_number: '**** **** **** 4242',
  month: 12,
  year: 2030,
  payment_gateway: 'noop',
  payment_gateway_id: 'noop_visa',
  version: 1,
});

function account(): accountsV1.Account {
  return accountsV1.Account.fromPartial({
    uuid: ACCOUNT,
    code: 'acme',
    company_name: 'Acme ApS',
    legal_country: 'DK',
    created_date: new Date('2026-11-26T03:59:00Z'),
    recipients: [{ uuid: 'r1', account: ACCOUNT, account_code: 'acme', name: 'Jane', email: 'jane@example.com' }],
    industry: 'Software',
    is_archived: false,
  });
}

const encoded = <T>(fns: { encode(message: T): { finish(): Uint8Array } }, message: T) => fns.encode(message).finish();

describe("GetAccount's reply with the stored snapshots", () => {
  it('decodes to the reply with the sets decoded and encoded again, in their order', () => {
    const subscriptions = [subscription(), subscription({ uuid: 's2', payment_terms: 0, churn_reason: 'r9' })];
    const embeds = accountsV1.SubscriptionSetEmbeds.fromPartial({
      accounts: [{ uuid: ACCOUNT, code: 'acme', display_name: 'Acme ApS', type: 'company' }],
      organization_default_payment_terms: 14,
    });
    const stored = withStoredSets(account(), {
      subscriptions: subscriptions.map((item) => encoded(subscriptionsV1.Subscription, item)),
      draft_lines: [line, { ...line, uuid: 'd2' }].map((item) => encoded(invoicingV1.DraftLine, item)),
      payment_cards: [encoded(paymentsV1.PaymentCard, card)],
    });

    const reply = accountsV1.GetAccountResponse.decode(encodeGetAccountResponse({ account: stored, embeds }));

    const full = {
      account: {
        ...account(),
        subscriptions,
        draft_lines: [line, { ...line, uuid: 'd2' }],
        payment_cards: [card],
      },
      embeds,
    };
    expect(reply).toEqual(accountsV1.GetAccountResponse.decode(encoded(accountsV1.GetAccountResponse, full)));
    expect(reply.account?.subscriptions.map((item) => item.uuid)).toEqual([
      'a1f0c0de-0000-4000-8000-000000000001',
      's2',
    ]);
  });

  it('encodes a reply without stored sets as GetAccountResponse.encode does, byte for byte', () => {
    const plain = { account: { ...account(), draft_lines: [line] }, embeds: undefined };
    expect(new Uint8Array(encodeGetAccountResponse(plain))).toEqual(encoded(accountsV1.GetAccountResponse, plain));
    expect(new Uint8Array(encodeGetAccountResponse({}))).toEqual(new Uint8Array());
  });

  it('refuses an account that carries decoded sets besides the stored ones', () => {
    expect(() =>
      withStoredSets(
        { ...account(), payment_cards: [card] },
        { subscriptions: [], draft_lines: [], payment_cards: [] },
      ),
    ).toThrow('must not carry decoded ones too');
  });
});

describe('embeddingFacts', () => {
  it('reads the account, churn reason and payment terms as the full decode does', () => {
    const cases = [
      subscription(),
      subscription({ payment_terms: 30, churn_reason: 'f3b1c0de-0000-4000-8000-0000000000aa' }),
      subscription({ payment_terms: 0 }),
      subscription({ account: '' }),
    ];
    for (const item of cases) {
      const snapshot = encoded(subscriptionsV1.Subscription, item);
      const decoded = subscriptionsV1.Subscription.decode(snapshot);
      expect(embeddingFacts(snapshot)).toEqual({
        account: decoded.account,
        churn_reason: decoded.churn_reason || null,
        payment_terms: decoded.payment_terms ?? null,
      });
    }
    expect(embeddingFacts(encoded(subscriptionsV1.Subscription, subscription({ payment_terms: 30 })))).toEqual({
      account: ACCOUNT,
      churn_reason: null,
      payment_terms: 30,
    });
  });
});
