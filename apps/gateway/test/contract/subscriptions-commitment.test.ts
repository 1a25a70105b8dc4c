/**
 * A contract's commitment (gaps.md §5): while it runs (start_date + commitment_length months) no
 * subscription of the account on the contract's terms can be cancelled, whichever of the two was
 * created first; the rule is checked when the cancellation is asked for, against the account's
 * contracts then (docs/subscription-engine.md "Cancellation"). Through HTTP on test clocks, in
 * Europe/Copenhagen.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  contractPath,
  createAccount,
  createContract,
  createPlanTerms,
  expectStatus,
  type Json,
  usePlatform,
} from './helpers.js';
import {
  type ClockOrganization,
  clockOrganization,
  SUBSCRIPTIONS,
  subscribePath,
  subscriptionFixture,
  subscriptionPath,
} from './subscriptions-helpers.js';

const platform = usePlatform();

/** The commitment of a contract from 1 Feb 2026 for 3 months. */
const FEB_TO_APRIL =
  'The subscription cannot be cancelled during its contract commitment (2026-02-01 through 2026-04-30).';

const cancel = (api: ApiClient, uuid: string, body: Json) => api.post(`${subscriptionPath(uuid)}cancel/`, body);

async function subscribeTo(org: ClockOrganization, code: string, terms: string): Promise<string> {
  const response = await org.api.post(SUBSCRIPTIONS, { account: code, terms, collection_method: 'invoice' });
  expectStatus(response, 201);
  return response.body.uuid as string;
}

/**
 * A subscription from 1 Feb (monthly, 100.00 DKK) made before any contract; then a contract on its
 * terms from 1 Feb with a 3-month commitment; the clock at 11 Feb.
 */
async function committedAfterwards() {
  const org = await clockOrganization(platform(), '2026-02-01T09:00:00.000Z');
  const data = await subscriptionFixture(org.api, { terms: { price: '100.00', currency: 'DKK' } });
  const subscription = await subscribeTo(org, data.code, data.terms.uuid);
  const contract = await createContract(org.api, data.code, data.terms.uuid, {
    start_date: '2026-02-01',
    end_date: null,
    commitment_length: 3,
  });
  await org.advance('2026-02-11T12:00:00.000Z');
  return { org, data, subscription, contract: contract as Json & { uuid: string } };
}

const refusal = async (response: Promise<{ status: number; body: unknown }>) => {
  const { status, body } = await response;
  return { status, body };
};

describe('a commitment added after the subscription', () => {
  it('refuses every cancellation but cancel_invalid while it runs, with one exact body', async () => {
    const { org, subscription } = await committedAfterwards();
    const refused = { status: 400, body: { detail: FEB_TO_APRIL } };

    expect(await refusal(cancel(org.api, subscription, { cancellation_type: 'today' }))).toEqual(refused);
    expect(await refusal(cancel(org.api, subscription, { cancellation_type: 'full_refund' }))).toEqual(refused);
    expect(await refusal(cancel(org.api, subscription, { cancellation_type: 'at_renewal' }))).toEqual(refused);
    expect(
      await refusal(cancel(org.api, subscription, { cancellation_type: 'at_renewal', cancel_renewal: 5 })),
    ).toEqual(refused);
    // Asked for during the commitment, even for a moment after it: refused.
    expect(
      await refusal(
        cancel(org.api, subscription, { cancellation_type: 'at_specified_time', cancel_date: '2026-06-01T09:00:00Z' }),
      ),
    ).toEqual(refused);
    const unchanged = await org.api.get(subscriptionPath(subscription));
    expect(unchanged.body).toMatchObject({ status: 'active', end_date: null });
    expect((await org.charges()).map((charge) => charge.kind)).toEqual(['renewal']);
  });

  it('allows cancel_invalid: a subscription made by mistake is not bound by the agreement', async () => {
    const { org, subscription } = await committedAfterwards();

    const response = await cancel(org.api, subscription, { cancellation_type: 'cancel_invalid' });

    expectStatus(response, 200);
    expect(response.body).toMatchObject({ status: 'expired', end_date: '2026-02-11T12:00:00.000Z' });
    expect((await org.charges()).map((charge) => [charge.kind, charge.amount, charge.credit_all_invoices])).toEqual([
      ['renewal', '100.00', false],
      ['cancellation', '-100.00', true],
    ]);
  });

  it('refuses on the commitment’s last day and allows the cancellation from the day after', async () => {
    const { org, subscription } = await committedAfterwards();
    // 30 April 23:59 in Copenhagen (summer time: UTC+2).
    await org.advance('2026-04-30T21:59:00.000Z');
    expect(await refusal(cancel(org.api, subscription, { cancellation_type: 'today' }))).toEqual({
      status: 400,
      body: { detail: FEB_TO_APRIL },
    });

    await org.advance('2026-04-30T22:00:00.000Z'); // 1 May 00:00 in Copenhagen
    const response = await cancel(org.api, subscription, { cancellation_type: 'today' });

    expectStatus(response, 200);
    expect(response.body).toMatchObject({ status: 'expired', end_date: '2026-04-30T22:00:00.000Z' });
    // 1 May 00:00 is still in April's period (it renews at 10:00), whose days are all used:
    // nothing is credited.
    expect((await org.charges()).map((charge) => [charge.kind, charge.lines[0]!.date_from, charge.amount])).toEqual([
      ['renewal', '2026-02-01', '100.00'],
      ['renewal', '2026-03-01', '100.00'],
      ['renewal', '2026-04-01', '100.00'],
    ]);
  });

  it('binds only subscriptions on the contract’s terms; a deleted contract binds nothing', async () => {
    const { org, data, subscription, contract } = await committedAfterwards();
    const otherTerms = await createPlanTerms(org.api, data.plan.uuid, {
      code: 'other',
      price: '50.00',
      currency: 'DKK',
    });
    const other = await subscribeTo(org, data.code, otherTerms.uuid as string);

    expectStatus(await cancel(org.api, other, { cancellation_type: 'today' }), 200);
    expectStatus(await org.api.delete(contractPath(data.code, contract.uuid)), 204);
    expectStatus(await cancel(org.api, subscription, { cancellation_type: 'today' }), 200);
  });

  it('binds every subscription of the account on its terms, made before or after it; not another account’s', async () => {
    const { org, data, subscription } = await committedAfterwards();
    const madeAfter = await subscribeTo(org, data.code, data.terms.uuid);
    const otherAccount = await createAccount(org.api);
    const othersOnSameTerms = await subscribeTo(org, otherAccount.code as string, data.terms.uuid);
    const refused = { status: 400, body: { detail: FEB_TO_APRIL } };

    for (const bound of [subscription, madeAfter]) {
      expect(await refusal(cancel(org.api, bound, { cancellation_type: 'today' }))).toEqual(refused);
      expect(await refusal(cancel(org.api, bound, { cancellation_type: 'at_renewal' }))).toEqual(refused);
      expect((await org.api.get(subscriptionPath(bound))).body).toMatchObject({ status: 'active', end_date: null });
    }
    // The contract is the account's: another account on the same terms is free to cancel.
    const response = await cancel(org.api, othersOnSameTerms, { cancellation_type: 'today' });
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ status: 'expired', end_date: '2026-02-11T12:00:00.000Z' });
  });

  it('refuses subscribe, which would end the subscription, while it runs', async () => {
    const { org, data, subscription } = await committedAfterwards();

    const response = await org.api.post(subscribePath(data.code), {
      terms: data.terms.uuid,
      quantity: 2,
      collection_method: 'invoice',
    });

    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: {
        detail:
          'The account has a subscription within its contract commitment (2026-02-01 through 2026-04-30); it cannot be replaced.',
      },
    });
    expect((await org.api.get(subscriptionPath(subscription))).body).toMatchObject({ status: 'active' });
  });
});

describe('a commitment that begins later', () => {
  /** The clock at 11 Feb; a contract from 1 Mar with a 2-month commitment (1 Mar through 30 Apr). */
  async function committedFromMarch() {
    const org = await clockOrganization(platform(), '2026-02-01T09:00:00.000Z');
    const data = await subscriptionFixture(org.api, { terms: { price: '100.00', currency: 'DKK' } });
    await createContract(org.api, data.code, data.terms.uuid, {
      start_date: '2026-03-01',
      end_date: null,
      commitment_length: 2,
    });
    const subscription = await subscribeTo(org, data.code, data.terms.uuid);
    await org.advance('2026-02-11T12:00:00.000Z');
    return { org, subscription };
  }

  it('refuses a cancellation that would take effect inside it; allows one that ends before it', async () => {
    const { org, subscription } = await committedFromMarch();
    const refused = {
      status: 400,
      body: {
        detail: 'The subscription cannot be cancelled during its contract commitment (2026-03-01 through 2026-04-30).',
      },
    };

    // The next renewal is on 1 March: inside the commitment.
    expect(await refusal(cancel(org.api, subscription, { cancellation_type: 'at_renewal' }))).toEqual(refused);
    expect(
      await refusal(
        cancel(org.api, subscription, { cancellation_type: 'at_specified_time', cancel_date: '2026-03-15T09:00:00Z' }),
      ),
    ).toEqual(refused);

    const response = await cancel(org.api, subscription, {
      cancellation_type: 'at_specified_time',
      cancel_date: '2026-02-20T09:00:00Z',
    });
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ status: 'not_renewing', end_date: '2026-02-20T09:00:00.000Z' });
  });

  it('allows today before it begins', async () => {
    const { org, subscription } = await committedFromMarch();
    const response = await cancel(org.api, subscription, { cancellation_type: 'today' });
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ status: 'expired' });
  });

  it('leaves a cancellation set before the contract existed to end on its date', async () => {
    const org = await clockOrganization(platform(), '2026-02-01T09:00:00.000Z');
    const data = await subscriptionFixture(org.api, { terms: { price: '100.00', currency: 'DKK' } });
    const subscription = await subscribeTo(org, data.code, data.terms.uuid);
    expectStatus(await cancel(org.api, subscription, { cancellation_type: 'at_renewal' }), 200);
    await createContract(org.api, data.code, data.terms.uuid, {
      start_date: '2026-02-01',
      end_date: null,
      commitment_length: 3,
    });

    await org.advance('2026-03-01T09:00:00.000Z');

    expect((await org.api.get(subscriptionPath(subscription))).body).toMatchObject({
      status: 'expired',
      end_date: '2026-03-01T09:00:00.000Z',
    });
  });
});
