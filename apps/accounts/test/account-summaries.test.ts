/**
 * AccountsService.GetAccountSummaries and ListAccountUuids over real gRPC against a real, migrated
 * schema: what the gateway embeds in subscriptions and how it filters subscriptions by accounts data.
 */
import { isAppError, StatusCode } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { useAccountsService } from './support/accounts-service.js';

const accounts = useAccountsService(accountsV1.AccountsServiceClient);
const clock = accounts.clock;
const client = accounts.client;

async function organization(): Promise<RequestContext> {
  return (await accounts.organization({ name: 'Summaries' })).context;
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
  clock.advanceMs(1_000);
  const reply = await client.call('createAccount', { account: input, present_fields: Object.keys(input) }, { context });
  return reply.account!;
}

describe('GetAccountSummaries', () => {
  it('returns the named accounts, by uuid or code, oldest first, each once, with the embedded fields', async () => {
    const context = await organization();
    const company = await account(context, 'acme', { company_name: 'Acme ApS', default_payment_terms: 30 });
    const person = await account(context, 'jane', { first_name: 'Jane', last_name: 'Doe' });
    const typed = await account(context, 'typed', { type: 'company' });
    await account(context, 'not-asked');

    const reply = await client.call(
      'getAccountSummaries',
      { uuids: [typed.uuid, company.uuid], codes: ['jane', 'acme'] },
      { context },
    );

    expect(reply.accounts).toEqual([
      {
        uuid: company.uuid,
        code: 'acme',
        display_name: 'Acme ApS',
        company_name: 'Acme ApS',
        type: 'company',
        payment_terms: 30,
      },
      { uuid: person.uuid, code: 'jane', display_name: 'Jane Doe', type: 'person' },
      { uuid: typed.uuid, code: 'typed', display_name: 'typed', type: 'company' },
    ]);
  });

  it("leaves out unknown and malformed names and another organization's accounts", async () => {
    const mine = await organization();
    const theirs = await organization();
    const own = await account(mine, 'shared-code');
    const foreign = await account(theirs, 'shared-code');
    await account(theirs, 'only-theirs');

    const reply = await client.call(
      'getAccountSummaries',
      {
        uuids: [foreign.uuid, 'not-a-uuid', '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f'],
        codes: ['shared-code', 'only-theirs', 'nobody'],
      },
      { context: mine },
    );

    expect(reply.accounts.map((summary) => summary.uuid)).toEqual([own.uuid]);
  });

  it('answers an empty request with no accounts', async () => {
    const context = await organization();
    await account(context, 'present');

    expect((await client.call('getAccountSummaries', { uuids: [], codes: [] }, { context })).accounts).toEqual([]);
  });

  it('refuses a call without an organization', async () => {
    const failure = await client
      .call('getAccountSummaries', { uuids: [], codes: ['x'] }, { context: { requestId: 'test' } })
      .catch((error: unknown) => error);

    expect(isAppError(failure) && failure.code).toBe(StatusCode.UNAUTHENTICATED);
  });
});

describe('ListAccountUuids', () => {
  it('returns every matching account of the organization, unpaged, oldest first', async () => {
    const context = await organization();
    const other = await organization();
    const created = [];
    for (let index = 0; index < 25; index++) created.push(await account(context, `a-${index}`));
    await account(other, 'a-0');

    const all = await client.call('listAccountUuids', { filter: {} }, { context });
    const byCode = await client.call('listAccountUuids', { filter: { code: 'a-7' } }, { context });
    const unknown = await client.call('listAccountUuids', { filter: { code: 'nobody' } }, { context });

    expect(all.uuids).toEqual(created.map((item) => item.uuid));
    expect(byCode.uuids).toEqual([created[7]!.uuid]);
    expect(unknown.uuids).toEqual([]);
  });

  it('applies the account list filters: has_recipient_receiving_invoices and active_payment_method', async () => {
    const context = await organization();
    const receiving = await account(context, 'receiving');
    const silent = await account(context, 'silent');
    const none = await account(context, 'none');
    for (const [accountUuid, receiveInvoice] of [
      [receiving.uuid, true],
      [silent.uuid, false],
    ] as const) {
      const recipient = {
        account: accountUuid,
        name: 'Ada',
        email: 'ada@example.com',
        receive_invoice: receiveInvoice,
      };
      await client.call('createRecipient', { recipient, present_fields: Object.keys(recipient) }, { context });
    }

    const yes = await client.call(
      'listAccountUuids',
      { filter: { has_recipient_receiving_invoices: true } },
      { context },
    );
    const no = await client.call(
      'listAccountUuids',
      { filter: { has_recipient_receiving_invoices: false } },
      { context },
    );
    const card = await client.call(
      'listAccountUuids',
      { filter: { active_payment_method: 'payment_card' } },
      { context },
    );
    const combined = await client.call(
      'listAccountUuids',
      { filter: { has_recipient_receiving_invoices: false, code: 'none' } },
      { context },
    );

    expect(yes.uuids).toEqual([receiving.uuid]);
    expect(no.uuids).toEqual([silent.uuid, none.uuid]);
    // No payments capability yet: the read model knows no payment method, so nothing matches.
    expect(card.uuids).toEqual([]);
    expect(combined.uuids).toEqual([none.uuid]);
  });
});
