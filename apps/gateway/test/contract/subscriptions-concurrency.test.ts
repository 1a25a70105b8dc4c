/**
 * Simultaneous calls on one account or one subscription, through HTTP on test clocks: each ends as
 * if the calls had run one after the other in some order (docs/subscription-engine.md
 * "Concurrency"). Amounts to the cent: 100.00 DKK monthly forward terms; on 11 Feb 12:00 a period
 * 1 Feb - 28 Feb has 18 of its 28 days left.
 */
import type { chargesV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { expectStatus, type Json, usePlatform } from './helpers.js';
import {
  clockOrganization,
  SUBSCRIPTIONS,
  subscribePath,
  subscriptionFixture,
  subscriptionPath,
} from './subscriptions-helpers.js';

const platform = usePlatform();

async function startedOn1Feb(quantity = 1) {
  const org = await clockOrganization(platform(), '2026-02-01T09:00:00.000Z');
  const data = await subscriptionFixture(org.api, { terms: { price: '100.00', currency: 'DKK' } });
  const response = await org.api.post(SUBSCRIPTIONS, {
    account: data.code,
    terms: data.terms.uuid,
    collection_method: 'invoice',
    quantity,
  });
  expectStatus(response, 201);
  await org.advance('2026-02-11T12:00:00.000Z');
  return { org, data, first: response.body as Json & { uuid: string } };
}

async function subscriptionsOf(api: ApiClient, code: string): Promise<Json[]> {
  const response = await api.get(`${SUBSCRIPTIONS}?account=${code}&page_size=100`);
  expectStatus(response, 200);
  return response.body.results as Json[];
}

/** The charges of each subscription, as [kind, amount] pairs in the order they were made. */
function chargesBySubscription(charges: chargesV1.Charge[]): Map<string, string[][]> {
  const bySubscription = new Map<string, string[][]>();
  for (const charge of charges) {
    bySubscription.set(charge.subscription, [
      ...(bySubscription.get(charge.subscription) ?? []),
      [charge.kind, charge.amount],
    ]);
  }
  return bySubscription;
}

describe('POST /accounts/{code}/subscribe/ four times at once', () => {
  it('leaves exactly one subscription; each one replaced is credited once; the invoices add up to the cent', async () => {
    const { org, data, first } = await startedOn1Feb();
    const body = { terms: data.terms.uuid, quantity: 2, collection_method: 'invoice' };

    const responses = await Promise.all([1, 2, 3, 4].map(() => org.api.post(subscribePath(data.code), body)));

    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const created = responses.map((response) => response.body.uuid as string);
    const subscriptions = await subscriptionsOf(org.api, data.code);
    const running = subscriptions.filter((subscription) => subscription.status !== 'expired');
    expect(running).toHaveLength(1);
    expect(created).toContain(running[0]!.uuid);
    expect(subscriptions.map((subscription) => [subscription.uuid, subscription.status]).sort()).toEqual(
      [first.uuid, ...created].map((uuid) => [uuid, uuid === running[0]!.uuid ? 'active' : 'expired']).sort(),
    );

    // The first: 18 of 28 days at 1 × 100.00 credited. Each replaced new one: its whole period
    // (11 Feb - 10 Mar), charged and credited at the same instant. The survivor: charged only.
    const charges = chargesBySubscription(await org.charges());
    expect(charges.get(first.uuid)).toEqual([
      ['renewal', '100.00'],
      ['cancellation', '-64.29'],
    ]);
    for (const uuid of created) {
      expect(charges.get(uuid)).toEqual(
        uuid === running[0]!.uuid
          ? [['renewal', '200.00']]
          : [
              ['renewal', '200.00'],
              ['cancellation', '-200.00'],
            ],
      );
    }

    // 5 invoices (100.00 and 4 × 200.00) and 4 credit notes (64.29 and 3 × 200.00), 25 % VAT; the
    // advance (to the same time) answers once everything charged is on an issued invoice.
    await org.advance('2026-02-11T12:00:00.000Z');
    const listed = await org.api.get(`/api/v1/invoices/?account=${data.code}&page_size=100`);
    expectStatus(listed, 200);
    const totals = (listed.body.results as Json[]).map((invoice) => invoice.total as number).sort((a, b) => a - b);
    expect(totals).toEqual([-250, -250, -250, -80.36, 125, 250, 250, 250, 250]);
  });
});

describe('one subscription, two calls at once', () => {
  it('cancel today and a quantity change: as if one ran after the other, in either order', async () => {
    const { org, first } = await startedOn1Feb();
    const path = subscriptionPath(first.uuid);

    const [cancelled, changed] = await Promise.all([
      org.api.post(`${path}cancel/`, { cancellation_type: 'today' }),
      org.api.patch(path, { quantity: 2 }),
    ]);

    expect([cancelled.status, changed.status]).toEqual([200, 200]);
    const after = await org.api.get(path);
    expect(after.body).toMatchObject({ status: 'expired', quantity: 2, end_date: '2026-02-11T12:00:00.000Z' });
    const made = chargesBySubscription(await org.charges())
      .get(first.uuid)!
      .slice(1);
    const changeThenCancel = [
      ['change', '64.28'], // 18/28 of 100.00 credited, of 200.00 charged
      ['cancellation', '-128.57'],
    ];
    const cancelThenChange = [['cancellation', '-64.29']]; // an expired subscription's change makes no document
    expect([changeThenCancel, cancelThenChange]).toContainEqual(made);
  });

  it('renew-now twice: two renewals, each period charged once', async () => {
    const { org, first } = await startedOn1Feb();
    const path = `${subscriptionPath(first.uuid)}renew-now/`;

    const responses = await Promise.all([org.api.post(path, {}), org.api.post(path, {})]);

    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(responses.map((response) => response.body.next_renewal_date).sort()).toEqual([
      '2026-04-01T08:00:00.000Z',
      '2026-05-01T08:00:00.000Z',
    ]);
    const charges = (await org.charges()).map((charge) => [charge.kind, charge.lines[0]!.date_from, charge.amount]);
    expect(charges).toEqual([
      ['renewal', '2026-02-01', '100.00'],
      ['renewal', '2026-03-01', '100.00'],
      ['renewal', '2026-04-01', '100.00'],
    ]);
  });
});
