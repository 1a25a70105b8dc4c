/**
 * Account reads (GetAccount, ListAccounts, UpdateAccount) send what their subscriptions embed
 * (account summaries, named churn reasons, the organization's payment terms when needed), so the
 * gateway presents subscription_set without another call. Real gRPC, real migrated schema; the
 * subscriptions arrive as subscription.changed envelopes through ReadModelService.ApplyEvents.
 */
import { randomUUID } from 'node:crypto';
import { encodeEnvelope } from '@billing/events';
import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import type { RequestContext } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAccountsService } from './support/accounts-service.js';
import { subscriptionChanged } from './support/subscription-events.js';

const service = useAccountsService(accountsV1.AccountsServiceClient);
const accounts = service.client;
let readModel: GrpcClient<typeof accountsV1.ReadModelServiceService>;
let churnReasons: GrpcClient<typeof accountsV1.ChurnReasonServiceService>;

beforeAll(() => {
  readModel = createGrpcClient(accountsV1.ReadModelServiceClient, service.service().address);
  churnReasons = createGrpcClient(accountsV1.ChurnReasonServiceClient, service.service().address);
});

afterAll(() => {
  readModel?.close();
  churnReasons?.close();
});

const NO_EMBEDS: accountsV1.SubscriptionSetEmbeds = { accounts: [], churn_reasons: [] };

async function organization() {
  const { context, organizationId } = await service.organization({ name: 'Embeds', default_payment_terms: 21 });
  return { context, organizationId };
}

async function account(context: RequestContext, code: string, fields: Partial<accountsV1.AccountInput> = {}) {
  const input = {
    code,
    legal_address: 'Vesterbrogade 1',
    legal_zipcode: '1620',
    legal_city: 'København V',
    legal_country: 'DK',
    ...fields,
  };
  service.clock.advanceMs(1_000);
  const reply = await accounts.call(
    'createAccount',
    { account: input, present_fields: Object.keys(input) },
    { context },
  );
  return reply.account!;
}

async function churnReason(context: RequestContext, name: string, deleted = false) {
  const input = { name, is_active: true };
  const reply = await churnReasons.call(
    'createChurnReason',
    { churn_reason: input, present_fields: Object.keys(input) },
    { context },
  );
  if (deleted) await churnReasons.call('deleteChurnReason', { uuid: reply.churn_reason!.uuid }, { context });
  return { ...reply.churn_reason!, deleted };
}

/** Hands a new subscription of the account to the read model, as the subscriptions service does. */
async function subscribe(
  org: { context: RequestContext; organizationId: string },
  accountUuid: string,
  extra: { churnReason?: string; paymentTerms?: number } = {},
) {
  const event = subscriptionChanged({
    organizationId: org.organizationId,
    subscription: randomUUID(),
    account: accountUuid,
    status: 'active',
    lastModified: '2026-01-15T09:00:00Z',
    version: 1,
    ...extra,
  });
  await readModel.call('applyEvents', { envelopes: [Buffer.from(encodeEnvelope(event))] }, { context: org.context });
}

const list = (context: RequestContext) =>
  accounts.call('listAccounts', { filter: {}, page: { page: 1, page_size: 100, ordering: 'code' } }, { context });

const patch = (context: RequestContext, code: string, fields: Partial<accountsV1.AccountInput>) =>
  accounts.call(
    'updateAccount',
    { code, replace: false, account: fields as accountsV1.AccountInput, present_fields: Object.keys(fields) },
    { context },
  );

describe('account reads send their subscriptions’ embeds', () => {
  it('are empty when no account of the reply has subscriptions', async () => {
    const org = await organization();
    await account(org.context, 'bare');
    await account(org.context, 'plain', { company_name: 'Plain ApS' });

    expect((await accounts.call('getAccount', { code: 'bare' }, { context: org.context })).embeds).toEqual(NO_EMBEDS);
    const listed = await list(org.context);
    expect(listed.accounts.map((item) => item.code)).toEqual(['bare', 'plain']);
    expect(listed.embeds).toEqual(NO_EMBEDS);
    expect((await patch(org.context, 'plain', { invoice_note: 'Thanks' })).embeds).toEqual(NO_EMBEDS);
  });

  it('carry the summaries of the accounts with subscriptions and the churn reasons named, a deleted one too', async () => {
    const org = await organization();
    const price = await churnReason(org.context, 'Price');
    const moved = await churnReason(org.context, 'Moved', true);
    await churnReason(org.context, 'Not named');
    const acme = await account(org.context, 'acme', { company_name: 'Acme ApS', default_payment_terms: 30 });
    const jane = await account(org.context, 'jane', { first_name: 'Jane', last_name: 'Doe' });
    await account(org.context, 'zz-bare');
    await subscribe(org, acme.uuid, { churnReason: moved.uuid });
    await subscribe(org, acme.uuid, { churnReason: price.uuid });
    await subscribe(org, acme.uuid);
    // Jane leaves her payment terms to the organization, but her subscription has its own.
    await subscribe(org, jane.uuid, { paymentTerms: 10, churnReason: moved.uuid });
    const acmeSummary = {
      uuid: acme.uuid,
      code: 'acme',
      display_name: 'Acme ApS',
      company_name: 'Acme ApS',
      type: 'company',
      payment_terms: 30,
    };
    const janeSummary = { uuid: jane.uuid, code: 'jane', display_name: 'Jane Doe', type: 'person' };

    const got = await accounts.call('getAccount', { code: 'acme' }, { context: org.context });
    expect(got.account!.subscriptions).toHaveLength(3);
    expect(got.embeds).toEqual({ accounts: [acmeSummary], churn_reasons: [moved, price] });

    const listed = await list(org.context);
    expect(listed.accounts.map((item) => item.code)).toEqual(['acme', 'jane', 'zz-bare']);
    expect(listed.embeds).toEqual({ accounts: [acmeSummary, janeSummary], churn_reasons: [moved, price] });
    // The same summaries and reasons the embedding calls answer (which the gateway no longer makes).
    const summaries = await accounts.call(
      'getAccountSummaries',
      { uuids: [acme.uuid, jane.uuid], codes: [] },
      { context: org.context },
    );
    expect(listed.embeds!.accounts).toEqual(summaries.accounts);
    const reasons = await churnReasons.call(
      'getChurnReasons',
      { uuids: [moved.uuid, price.uuid] },
      { context: org.context },
    );
    const byUuid = (a: { uuid: string }, b: { uuid: string }) => a.uuid.localeCompare(b.uuid);
    expect([...listed.embeds!.churn_reasons].sort(byUuid)).toEqual([...reasons.churn_reasons].sort(byUuid));

    expect((await accounts.call('getAccount', { code: 'zz-bare' }, { context: org.context })).embeds).toEqual(
      NO_EMBEDS,
    );
  });

  it("carry the organization's payment terms exactly when a subscription and its account both leave them unset", async () => {
    const org = await organization();
    const open = await account(org.context, 'open');
    await subscribe(org, open.uuid);
    const openSummary = { uuid: open.uuid, code: 'open', display_name: 'open', type: 'person' };

    expect((await accounts.call('getAccount', { code: 'open' }, { context: org.context })).embeds).toEqual({
      accounts: [openSummary],
      churn_reasons: [],
      organization_default_payment_terms: 21,
    });
    expect((await list(org.context)).embeds?.organization_default_payment_terms).toBe(21);

    // The update's reply reflects the written account: its own terms now apply.
    expect((await patch(org.context, 'open', { default_payment_terms: 45 })).embeds).toEqual({
      accounts: [{ ...openSummary, payment_terms: 45 }],
      churn_reasons: [],
    });
    expect((await patch(org.context, 'open', { default_payment_terms: undefined })).embeds).toEqual({
      accounts: [openSummary],
      churn_reasons: [],
      organization_default_payment_terms: 21,
    });
  });
});
