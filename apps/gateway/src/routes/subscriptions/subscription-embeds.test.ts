import type { accountsV1, subscriptionsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { knownFromAccountRead } from './account-subscription-sets.js';
import { loadEmbeds } from './subscription-embeds.js';

/**
 * The embedding round's cost is part of its contract (one call per kind, whatever the page size),
 * so these tests record the calls it makes. The answers come from small in-memory directories; the
 * real services are exercised by the contract tests (test/contract/subscriptions-*.test.ts).
 */
function recordingClients(directory: {
  accounts: accountsV1.AccountSummary[];
  reasons: accountsV1.ChurnReason[];
  organizationPaymentTerms: number;
}) {
  const calls: Array<[string, unknown]> = [];
  const clients = {
    accounts: {
      call: async (method: string, request: accountsV1.GetAccountSummariesRequest) => {
        calls.push([method, request]);
        return { accounts: directory.accounts.filter((summary) => request.uuids.includes(summary.uuid)) };
      },
    },
    churnReasons: {
      call: async (method: string, request: accountsV1.GetChurnReasonsRequest) => {
        calls.push([method, request]);
        return { churn_reasons: directory.reasons.filter((reason) => request.uuids.includes(reason.uuid)) };
      },
    },
    identity: {
      call: async (method: string, request: unknown) => {
        calls.push([method, request]);
        return { organization: { default_payment_terms: directory.organizationPaymentTerms } };
      },
    },
  };
  return { clients: clients as unknown as Parameters<typeof loadEmbeds>[0], calls };
}

const summary = (uuid: string, paymentTerms?: number): accountsV1.AccountSummary => ({
  uuid,
  code: `code-${uuid}`,
  display_name: uuid,
  type: 'person',
  ...(paymentTerms === undefined ? {} : { payment_terms: paymentTerms }),
});

const subscription = (account: string, extra: Partial<subscriptionsV1.Subscription> = {}) =>
  ({ account, scheduled_changes: [], ...extra }) as subscriptionsV1.Subscription;

describe('loadEmbeds', () => {
  it('asks for every account and churn reason of a page in one call each, each uuid once', async () => {
    const { clients, calls } = recordingClients({
      accounts: [summary('a1', 10), summary('a2', 20)],
      reasons: [{ uuid: 'r1', name: 'Price', is_active: true, deleted: false }],
      organizationPaymentTerms: 14,
    });
    const page = Array.from({ length: 20 }, (_, index) =>
      subscription(index % 2 ? 'a1' : 'a2', index < 5 ? { churn_reason: 'r1' } : {}),
    );

    const embeds = await loadEmbeds(clients, page);

    expect(calls).toEqual([
      ['getAccountSummaries', { uuids: ['a2', 'a1'], codes: [] }],
      ['getChurnReasons', { uuids: ['r1'] }],
    ]);
    expect([...embeds.accounts.keys()].sort()).toEqual(['a1', 'a2']);
    expect(embeds.churnReasons.get('r1')?.name).toBe('Price');
    expect(embeds.organizationPaymentTerms).toBeNull();
  });

  it('asks for the organization only when a subscription and its account both leave the payment terms open', async () => {
    const { clients, calls } = recordingClients({
      accounts: [summary('a1'), summary('a2', 20)],
      reasons: [],
      organizationPaymentTerms: 30,
    });

    const embeds = await loadEmbeds(clients, [subscription('a1'), subscription('a1'), subscription('a2')]);

    expect(calls.map(([method]) => method)).toEqual(['getAccountSummaries', 'getOrganization']);
    expect(embeds.organizationPaymentTerms).toBe(30);
  });

  it('does not ask again for what the caller already holds, nor at all for an empty page', async () => {
    const { clients, calls } = recordingClients({ accounts: [], reasons: [], organizationPaymentTerms: 14 });
    const reason = { uuid: 'r1', name: 'Price', is_active: true, deleted: false };

    await loadEmbeds(clients, [subscription('a1', { churn_reason: 'r1', payment_terms: 5 })], {
      accounts: [summary('a1')],
      churnReasons: [reason],
    });
    await loadEmbeds(clients, []);

    expect(calls).toEqual([]);
  });

  it("makes no call when an account read sent the embeds, the organization's payment terms included", async () => {
    const { clients, calls } = recordingClients({ accounts: [], reasons: [], organizationPaymentTerms: 14 });
    const reason = { uuid: 'r1', name: 'Moved', is_active: true, deleted: true };
    const page = [
      subscription('a1', { churn_reason: 'r1' }),
      subscription('a1'),
      subscription('a2', { payment_terms: 5 }),
    ];

    const embeds = await loadEmbeds(
      clients,
      page,
      knownFromAccountRead({
        accounts: [summary('a1'), summary('a2', 20)],
        churn_reasons: [reason],
        organization_default_payment_terms: 30,
      }),
    );

    expect(calls).toEqual([]);
    expect([...embeds.accounts.keys()]).toEqual(['a1', 'a2']);
    expect(embeds.churnReasons.get('r1')).toEqual(reason);
    expect(embeds.organizationPaymentTerms).toBe(30);
  });

  it('still asks for what a read without embeds (an older accounts service) leaves out', async () => {
    const { clients, calls } = recordingClients({
      accounts: [summary('a1')],
      reasons: [],
      organizationPaymentTerms: 14,
    });

    const embeds = await loadEmbeds(clients, [subscription('a1')], knownFromAccountRead(undefined));

    expect(calls.map(([method]) => method)).toEqual(['getAccountSummaries', 'getOrganization']);
    expect(embeds.organizationPaymentTerms).toBe(14);
  });
});
