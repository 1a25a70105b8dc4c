/**
 * The renewal engine end to end through HTTP, on test clocks (issue 3 acceptance): exact charges
 * as invoicing receives them (charge.created from JetStream), dates to the day, amounts to the cent.
 * Organizations are in Europe/Copenhagen (the default); renewals keep the local time of day.
 */
import type { chargesV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { contractsPath, expectStatus, type Json, usePlatform } from './helpers.js';
import {
  SUBSCRIPTIONS,
  subscribePath,
  subscriptionFixture,
  subscriptionPath,
  clockOrganization as testClockOrganization,
} from './subscriptions-helpers.js';

const platform = usePlatform();

/** An organization on its own test clock starting at `time`. */
const clockOrganization = (time: string) => testClockOrganization(platform(), time);

/** A charge as a person checks it: kind, and per line kind, days covered and amount. */
function summary(charge: chargesV1.Charge) {
  return {
    kind: charge.kind,
    amount: charge.amount,
    lines: charge.lines.map((line) => [line.kind, line.date_from, line.date_to, line.quantity, line.amount]),
  };
}

async function subscribeTo(api: ApiClient, terms: Json, account: string, body: Json = {}) {
  const response = await api.post(SUBSCRIPTIONS, {
    account,
    terms: terms.uuid,
    collection_method: 'invoice',
    ...body,
  });
  expectStatus(response, 201);
  return response.body as Json & { uuid: string };
}

async function fixture(api: ApiClient, terms: Json = {}) {
  return subscriptionFixture(api, { terms: { price: '100.00', currency: 'DKK', ...terms } });
}

const get = async (api: ApiClient, uuid: string) => {
  const response = await api.get(subscriptionPath(uuid));
  expectStatus(response, 200);
  return response.body as Json;
};

describe('renewals', () => {
  it('monthly forward 100.00 x 2 from 15 Jan: 200.00 for 15 Jan - 14 Feb; at 15 Feb the next period', async () => {
    const org = await clockOrganization('2026-01-15T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);

    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    expect(created).toMatchObject({
      status: 'active',
      start_date: '2026-01-15T09:00:00.000Z',
      base_renewal_date: '2026-01-15T09:00:00.000Z',
      last_renewal_date: '2026-01-15T09:00:00.000Z',
      next_renewal_date: '2026-02-15T09:00:00.000Z',
      current_mrr: '200.00',
      final_price: '200.00',
    });
    expect((await org.charges()).map(summary)).toEqual([
      { kind: 'renewal', amount: '200.00', lines: [['renewal', '2026-01-15', '2026-02-14', 2, '200.00']] },
    ]);

    await org.advance('2026-02-15T08:59:59.000Z');
    expect(await org.charges()).toHaveLength(1);
    await org.advance('2026-02-15T09:00:00.000Z');
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'renewal',
      amount: '200.00',
      lines: [['renewal', '2026-02-15', '2026-03-14', 2, '200.00']],
    });
    expect(await get(org.api, created.uuid)).toMatchObject({
      last_renewal_date: '2026-02-15T09:00:00.000Z',
      next_renewal_date: '2026-03-15T09:00:00.000Z',
    });
  });

  it('from 31 Jan renews on 28 Feb, 31 Mar, 30 Apr (in local time across the DST change)', async () => {
    const org = await clockOrganization('2026-01-31T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code);

    await org.advance('2026-05-01T00:00:00.000Z');
    expect((await org.charges()).map((charge) => charge.lines[0]!.date_from)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
    // 10:00 in Copenhagen: 09:00Z in winter, 08:00Z in summer.
    expect(await get(org.api, created.uuid)).toMatchObject({ next_renewal_date: '2026-05-31T08:00:00.000Z' });
  });

  it('in a leap year the end of January renews on 29 Feb', async () => {
    const org = await clockOrganization('2028-01-31T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    await subscribeTo(org.api, terms, code);
    await org.advance('2028-03-01T00:00:00.000Z');
    expect((await org.charges()).map((charge) => charge.lines[0]!.date_from)).toEqual(['2028-01-31', '2028-02-29']);
  });

  it('backwards-charging terms: nothing at the start; the elapsed period at its end', async () => {
    const org = await clockOrganization('2026-01-15T09:00:00.000Z');
    const { terms, code } = await fixture(org.api, { backwards_charging: true });
    await subscribeTo(org.api, terms, code);
    expect(await org.charges()).toEqual([]);

    await org.advance('2026-02-15T09:00:00.000Z');
    expect((await org.charges()).map(summary)).toEqual([
      { kind: 'renewal', amount: '100.00', lines: [['renewal', '2026-01-15', '2026-02-14', 1, '100.00']] },
    ]);
  });

  it('a future start_date is scheduled and starts (and is charged) when its time comes', async () => {
    const org = await clockOrganization('2026-01-15T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { start_date: '2026-02-01T09:00:00.000Z' });
    expect(created).toMatchObject({ status: 'scheduled', current_mrr: '0.00', committed_mrr: '100.00' });
    expect(await org.charges()).toEqual([]);

    await org.advance('2026-02-01T09:00:00.000Z');
    expect(await get(org.api, created.uuid)).toMatchObject({
      status: 'active',
      next_renewal_date: '2026-03-01T09:00:00.000Z',
    });
    expect((await org.charges()).map(summary)).toEqual([
      { kind: 'renewal', amount: '100.00', lines: [['renewal', '2026-02-01', '2026-02-28', 1, '100.00']] },
    ]);
  });

  it('without auto-renew: nothing at the renewal, pending_manual_renewal, then renew-now starts a period now', async () => {
    const org = await clockOrganization('2026-01-15T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { is_auto_renew_enabled: false });

    await org.advance('2026-02-20T09:00:00.000Z');
    expect(await get(org.api, created.uuid)).toMatchObject({ status: 'pending_manual_renewal' });
    expect(await org.charges()).toHaveLength(1);

    const renewed = await org.api.post(`${subscriptionPath(created.uuid)}renew-now/`, {});
    expectStatus(renewed, 200);
    expect(renewed.body).toMatchObject({
      status: 'active',
      last_renewal_date: '2026-02-20T09:00:00.000Z',
      next_renewal_date: '2026-03-20T09:00:00.000Z',
    });
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'renewal',
      amount: '100.00',
      lines: [['renewal', '2026-02-20', '2026-03-19', 1, '100.00']],
    });
  });

  it('renew-now on an active forward subscription invoices the next period now; others are refused', async () => {
    const org = await clockOrganization('2026-01-15T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code);
    const renewed = await org.api.post(`${subscriptionPath(created.uuid)}renew-now/`, {});
    expectStatus(renewed, 200);
    expect(renewed.body).toMatchObject({ next_renewal_date: '2026-03-15T09:00:00.000Z' });
    expect((await org.charges()).map((charge) => charge.lines[0]!.date_from)).toEqual(['2026-01-15', '2026-02-15']);

    const backwards = await fixture(org.api, { backwards_charging: true });
    const other = await subscribeTo(org.api, backwards.terms, backwards.code);
    const refused = await org.api.post(`${subscriptionPath(other.uuid)}renew-now/`, {});
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { detail: 'A subscription with status active cannot be renewed now.' },
    });
  });
});

describe('changes', () => {
  it('quantity 2 → 3 immediately on day 11 of a 28-day period: 18 days credited at 2 and charged at 3', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    await org.advance('2026-02-11T12:00:00.000Z');

    const changed = await org.api.patch(subscriptionPath(created.uuid), { quantity: 3 });
    expectStatus(changed, 200);
    expect(changed.body).toMatchObject({
      quantity: 3,
      next_renewal_date: '2026-03-01T09:00:00.000Z',
      current_mrr: '300.00',
    });
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'change',
      amount: '64.29',
      lines: [
        ['change_credit', '2026-02-11', '2026-02-28', 2, '-128.57'],
        ['change_charge', '2026-02-11', '2026-02-28', 3, '192.86'],
      ],
    });

    await org.advance('2026-03-01T09:00:00.000Z');
    expect((await org.charges()).map(summary)[2]).toEqual({
      kind: 'renewal',
      amount: '300.00',
      lines: [['renewal', '2026-03-01', '2026-03-31', 3, '300.00']],
    });
  });

  it('at_renewal change waits for the renewal (scheduled_changes), then applies without proration', async () => {
    const org = await clockOrganization('2026-01-15T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code);
    await org.advance('2026-01-20T09:00:00.000Z');

    const changed = await org.api.patch(subscriptionPath(created.uuid), { quantity: 4, change_type: 'at_renewal' });
    expectStatus(changed, 200);
    expect(changed.body).toMatchObject({ quantity: 1, current_mrr: '100.00', committed_mrr: '400.00' });
    expect((changed.body as Json).scheduled_changes).toEqual([
      {
        uuid: expect.any(String),
        date: '2026-02-15T09:00:00.000Z',
        terms: terms.uuid,
        quantity: 4,
        change_type: 'at_renewal',
        model: 'scheduled_change',
        schema: expect.stringMatching(/^\d{4}-\d{2}-\d{2}-scheduled_change$/),
      },
    ]);
    expect(await org.charges()).toHaveLength(1);

    await org.advance('2026-02-15T09:00:00.000Z');
    expect(await get(org.api, created.uuid)).toMatchObject({ quantity: 4, scheduled_changes: [] });
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'renewal',
      amount: '400.00',
      lines: [['renewal', '2026-02-15', '2026-03-14', 4, '400.00']],
    });
  });

  it('at_specified_time change happens at prorate_date with the same proration as immediate', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    const changed = await org.api.patch(subscriptionPath(created.uuid), {
      quantity: 3,
      change_type: 'at_specified_time',
      prorate_date: '2026-02-11T12:00:00.000Z',
    });
    expectStatus(changed, 200);
    await org.advance('2026-02-12T00:00:00.000Z');
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'change',
      amount: '64.29',
      lines: [
        ['change_credit', '2026-02-11', '2026-02-28', 2, '-128.57'],
        ['change_charge', '2026-02-11', '2026-02-28', 3, '192.86'],
      ],
    });
  });

  it('a change to terms in another currency is refused on terms; field combinations are checked', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code, plan } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code);
    const euro = await org.api.post('/api/v1/planterms/', {
      plan: plan.uuid,
      code: 'eur',
      interval_type: 'month',
      interval_count: 1,
      price: '10.00',
      currency: 'EUR',
      backwards_charging: false,
    });
    expectStatus(euro, 201);
    const refused = await org.api.patch(subscriptionPath(created.uuid), { terms: (euro.body as Json).uuid });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { terms: ['The currency of a subscription cannot be changed.'] },
    });
    const past = await org.api.patch(subscriptionPath(created.uuid), {
      quantity: 2,
      change_type: 'at_specified_time',
      prorate_date: '2026-01-01T00:00:00.000Z',
    });
    expect({ status: past.status, body: past.body }).toEqual({
      status: 400,
      body: { prorate_date: ['The change must be in the future.'] },
    });
    expect(await org.charges()).toHaveLength(1);
  });
});

describe('cancellations', () => {
  const cancel = (api: ApiClient, uuid: string, body: Json) => api.post(`${subscriptionPath(uuid)}cancel/`, body);

  async function startedOn1Feb(backwards = false) {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api, { backwards_charging: backwards });
    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    await org.advance('2026-02-11T12:00:00.000Z');
    return { org, created };
  }

  it('today, forward: the unused remainder credited; expired now', async () => {
    const { org, created } = await startedOn1Feb();
    const response = await cancel(org.api, created.uuid, { cancellation_type: 'today' });
    expectStatus(response, 200);
    expect(response.body).toMatchObject({
      status: 'expired',
      end_date: '2026-02-11T12:00:00.000Z',
      current_mrr: '0.00',
    });
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'cancellation',
      amount: '-128.57',
      lines: [['cancel_credit', '2026-02-11', '2026-02-28', 2, '-128.57']],
    });
  });

  it('today, backwards: the used part invoiced now', async () => {
    const { org, created } = await startedOn1Feb(true);
    expectStatus(await cancel(org.api, created.uuid, { cancellation_type: 'today' }), 200);
    expect((await org.charges()).map(summary)).toEqual([
      { kind: 'cancellation', amount: '71.43', lines: [['cancel_elapsed', '2026-02-01', '2026-02-10', 2, '71.43']] },
    ]);
  });

  it('full_refund: forward credits the whole period; backwards invoices nothing', async () => {
    const forward = await startedOn1Feb();
    expectStatus(await cancel(forward.org.api, forward.created.uuid, { cancellation_type: 'full_refund' }), 200);
    expect((await forward.org.charges()).map(summary)[1]).toEqual({
      kind: 'cancellation',
      amount: '-200.00',
      lines: [['cancel_credit', '2026-02-01', '2026-02-28', 2, '-200.00']],
    });
    const backwards = await startedOn1Feb(true);
    const response = await cancel(backwards.org.api, backwards.created.uuid, { cancellation_type: 'full_refund' });
    expect(response.body).toMatchObject({ status: 'expired' });
    await backwards.org.advance('2026-04-01T00:00:00.000Z');
    expect(await backwards.org.charges()).toEqual([]);
  });

  it('at_renewal with cancel_renewal 1: not_renewing until the second renewal, then expired without credit', async () => {
    const { org, created } = await startedOn1Feb();
    const response = await cancel(org.api, created.uuid, { cancellation_type: 'at_renewal', cancel_renewal: 1 });
    expectStatus(response, 200);
    expect(response.body).toMatchObject({
      status: 'not_renewing',
      end_date: '2026-04-01T08:00:00.000Z',
      committed_mrr: '0.00',
      current_mrr: '200.00',
    });
    const again = await cancel(org.api, created.uuid, { cancellation_type: 'today' });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: { detail: 'A subscription with status not_renewing cannot be cancelled.' },
    });

    await org.advance('2026-04-02T00:00:00.000Z');
    expect(await get(org.api, created.uuid)).toMatchObject({ status: 'expired', end_date: '2026-04-01T08:00:00.000Z' });
    expect((await org.charges()).map((charge) => [charge.kind, charge.lines[0]!.date_from, charge.amount])).toEqual([
      ['renewal', '2026-02-01', '200.00'],
      ['renewal', '2026-03-01', '200.00'],
    ]);
  });

  it('at_renewal on backwards terms: the last period is invoiced at its end, then expired', async () => {
    const { org, created } = await startedOn1Feb(true);
    expectStatus(await cancel(org.api, created.uuid, { cancellation_type: 'at_renewal' }), 200);
    await org.advance('2026-03-02T00:00:00.000Z');
    expect(await get(org.api, created.uuid)).toMatchObject({ status: 'expired' });
    expect((await org.charges()).map(summary)).toEqual([
      { kind: 'renewal', amount: '200.00', lines: [['renewal', '2026-02-01', '2026-02-28', 2, '200.00']] },
    ]);
  });

  it('at_specified_time: not_renewing until cancel_date, then as today', async () => {
    const { org, created } = await startedOn1Feb();
    const response = await cancel(org.api, created.uuid, {
      cancellation_type: 'at_specified_time',
      cancel_date: '2026-02-21T12:00:00.000Z',
    });
    expect(response.body).toMatchObject({ status: 'not_renewing', end_date: '2026-02-21T12:00:00.000Z' });
    await org.advance('2026-02-22T00:00:00.000Z');
    expect(await get(org.api, created.uuid)).toMatchObject({ status: 'expired' });
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'cancellation',
      amount: '-57.14',
      lines: [['cancel_credit', '2026-02-21', '2026-02-28', 2, '-57.14']],
    });
  });

  it('cancel_invalid: every charge credited in full, flagged for invoicing', async () => {
    const { org, created } = await startedOn1Feb();
    expectStatus(await cancel(org.api, created.uuid, { cancellation_type: 'cancel_invalid' }), 200);
    const [, credit] = await org.charges();
    expect(summary(credit!)).toEqual({
      kind: 'cancellation',
      amount: '-200.00',
      lines: [['cancel_credit', '2026-02-01', '2026-02-28', 2, '-200.00']],
    });
    expect(credit!.credit_all_invoices).toBe(true);
  });

  it('bad bodies are 400 naming the field', async () => {
    const { org, created } = await startedOn1Feb();
    const cases: Array<[Json, Json]> = [
      [{}, { cancellation_type: ['This field is required.'] }],
      [{ cancellation_type: 'someday' }, { cancellation_type: ['"someday" is not a valid choice.'] }],
      [
        { cancellation_type: 'at_specified_time' },
        { cancel_date: ['This field is required with cancellation_type at_specified_time.'] },
      ],
      [
        { cancellation_type: 'at_specified_time', cancel_date: '2026-02-01T00:00:00.000Z' },
        { cancel_date: ['The cancellation must be in the future.'] },
      ],
    ];
    for (const [body, expected] of cases) {
      const response = await cancel(org.api, created.uuid, body);
      expect({ body, status: response.status, errors: response.body }).toEqual({ body, status: 400, errors: expected });
    }
    expect(await get(org.api, created.uuid)).toMatchObject({ status: 'active' });
  });
});

describe('reactivation', () => {
  it('not_renewing becomes active and keeps renewing; expired starts a new period now', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code);
    const path = subscriptionPath(created.uuid);

    expectStatus(await org.api.post(`${path}cancel/`, { cancellation_type: 'at_renewal' }), 200);
    const reactivated = await org.api.post(`${path}reactivate/`, {});
    expectStatus(reactivated, 200);
    expect(reactivated.body).toMatchObject({ status: 'active', end_date: null });
    await org.advance('2026-03-01T09:00:00.000Z');
    expect(await org.charges()).toHaveLength(2);

    await org.advance('2026-03-10T09:00:00.000Z');
    expectStatus(await org.api.post(`${path}cancel/`, { cancellation_type: 'today' }), 200);
    await org.advance('2026-03-20T09:00:00.000Z');
    const again = await org.api.post(`${path}reactivate/`, {});
    expect(again.body).toMatchObject({ status: 'active', next_renewal_date: '2026-04-20T08:00:00.000Z' });
    expect((await org.charges()).map(summary).at(-1)).toEqual({
      kind: 'reactivation',
      amount: '100.00',
      lines: [['renewal', '2026-03-20', '2026-04-19', 1, '100.00']],
    });

    const refused = await org.api.post(`${path}reactivate/`, {});
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { detail: 'A subscription with status active cannot be reactivated.' },
    });
  });
});

describe('contracts and tiers', () => {
  async function tierFixture(org: Awaited<ReturnType<typeof clockOrganization>>, commitment = 0) {
    const data = await fixture(org.api);
    const contract = await org.api.post(contractsPath(data.code), {
      plan_terms: data.terms.uuid,
      start_date: '2026-01-01',
      commitment_length: commitment,
    });
    expectStatus(contract, 201);
    const tier = await org.api.post(`${contractsPath(data.code)}${(contract.body as Json).uuid}/tiers/`, {
      minimum_quantity: 5,
      discount: '10',
      discount_type: 'percentage',
    });
    expectStatus(tier, 201);
    return data;
  }

  it('a 10% tier from quantity 5 applies to the terms price and to an override, not below 5', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const data = await tierFixture(org);
    const five = await subscribeTo(org.api, data.terms, data.code, { quantity: 5 });
    expect(five).toMatchObject({ final_price: '450.00', current_mrr: '450.00' });
    await subscribeTo(org.api, data.terms, data.code, { quantity: 5, override_price: '80.00' });
    await subscribeTo(org.api, data.terms, data.code, { quantity: 4 });
    const charges = await org.charges();
    expect(charges.map((charge) => charge.amount)).toEqual(['450.00', '360.00', '400.00']);
    expect(charges[1]!.lines[0]).toMatchObject({
      unit_price: '80',
      price_source: 'override',
      discounted_unit_price: '72',
      tiers_applied: [{ minimum_quantity: 5, discount: '10', discount_type: 'percentage', amount_off_per_unit: '8' }],
    });
  });

  it('a contract inside its commitment refuses the cancellation', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const data = await tierFixture(org, 12);
    const created = await subscribeTo(org.api, data.terms, data.code);
    const response = await org.api.post(`${subscriptionPath(created.uuid)}cancel/`, { cancellation_type: 'today' });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: {
        detail: 'The subscription cannot be cancelled during its contract commitment (2026-01-01 through 2026-12-31).',
      },
    });
  });
});

describe('subscribe replaces the account’s other subscriptions', () => {
  it('cancels and credits the others, charges the new one, all at once; other accounts untouched', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const data = await fixture(org.api);
    const old = await subscribeTo(org.api, data.terms, data.code, { quantity: 2 });
    const neighbour = await fixture(org.api);
    const untouched = await subscribeTo(org.api, neighbour.terms, neighbour.code);
    await org.advance('2026-02-11T12:00:00.000Z');

    const response = await org.api.post(subscribePath(data.code), {
      terms: data.terms.uuid,
      quantity: 3,
      collection_method: 'invoice',
    });
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ status: 'active', quantity: 3, start_date: '2026-02-11T12:00:00.000Z' });
    expect(await get(org.api, old.uuid)).toMatchObject({ status: 'expired', end_date: '2026-02-11T12:00:00.000Z' });
    expect(await get(org.api, untouched.uuid)).toMatchObject({ status: 'active' });
    expect((await org.charges()).map(summary).slice(2)).toEqual([
      { kind: 'cancellation', amount: '-128.57', lines: [['cancel_credit', '2026-02-11', '2026-02-28', 2, '-128.57']] },
      { kind: 'renewal', amount: '300.00', lines: [['renewal', '2026-02-11', '2026-03-10', 3, '300.00']] },
    ]);
  });
});

describe('plan terms in use', () => {
  it('terms used by a subscription cannot be deleted (400); inactive terms refuse new subscriptions', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code);
    expectStatus(await org.api.post(`${subscriptionPath(created.uuid)}cancel/`, { cancellation_type: 'today' }), 200);

    const refused = await org.api.delete(`/api/v1/planterms/${terms.uuid}/`);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { detail: 'Plan terms used by a subscription cannot be deleted; set active to false instead.' },
    });
    expectStatus(await org.api.patch(`/api/v1/planterms/${terms.uuid}/`, { active: false }), 200);
    const inactive = await org.api.post(SUBSCRIPTIONS, {
      account: code,
      terms: terms.uuid,
      collection_method: 'invoice',
    });
    expect({ status: inactive.status, body: inactive.body }).toEqual({
      status: 400,
      body: { terms: ['These plan terms are inactive; no new subscriptions can be started with them.'] },
    });
  });
});

describe('cancellations on backwards terms', () => {
  async function backwardsOn1Feb() {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api, { backwards_charging: true });
    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    return { org, created };
  }

  it('at_specified_time: the days used up to cancel_date are invoiced then', async () => {
    const { org, created } = await backwardsOn1Feb();
    const response = await org.api.post(`${subscriptionPath(created.uuid)}cancel/`, {
      cancellation_type: 'at_specified_time',
      cancel_date: '2026-02-21T12:00:00.000Z',
    });
    expect(response.body).toMatchObject({ status: 'not_renewing' });
    await org.advance('2026-03-05T00:00:00.000Z');
    // 200 × 20/28 = 142.857… → 142.86
    expect((await org.charges()).map(summary)).toEqual([
      {
        kind: 'cancellation',
        amount: '142.86',
        lines: [['cancel_elapsed', '2026-02-01', '2026-02-20', 2, '142.86']],
      },
    ]);
  });

  it('cancel_invalid: every invoiced period credited (nothing yet in the first period)', async () => {
    const { org, created } = await backwardsOn1Feb();
    await org.advance('2026-03-10T09:00:00.000Z');
    expectStatus(
      await org.api.post(`${subscriptionPath(created.uuid)}cancel/`, { cancellation_type: 'cancel_invalid' }),
      200,
    );
    expect((await org.charges()).map(summary)).toEqual([
      { kind: 'renewal', amount: '200.00', lines: [['renewal', '2026-02-01', '2026-02-28', 2, '200.00']] },
      { kind: 'cancellation', amount: '-200.00', lines: [['cancel_credit', '2026-02-01', '2026-02-28', 2, '-200.00']] },
    ]);
    expect(await get(org.api, created.uuid)).toMatchObject({ status: 'expired', end_date: '2026-03-10T09:00:00.000Z' });
  });
});

describe('subscription.changed', () => {
  it('carries the change, the pricing before and after, the effective moment and the new state', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code, plan } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    await org.advance('2026-02-11T12:00:00.000Z');
    expectStatus(await org.api.patch(subscriptionPath(created.uuid), { quantity: 3 }), 200);

    const events = await platform().subscriptionChanges(org.organizationId);
    expect(events.map((event) => event.change)).toEqual(['created', 'activated', 'changed']);
    const changed = events[2]!;
    expect(changed).toMatchObject({
      change: 'changed',
      change_type: 'immediate',
      cancellation_type: '',
      effective_at: new Date('2026-02-11T12:00:00.000Z'),
      old_pricing: {
        terms: terms.uuid,
        plan: plan.uuid,
        status: 'active',
        quantity: 2,
        currency: 'DKK',
        interval_type: 'month',
        interval_count: 1,
        unit_price: '100',
        discounted_unit_price: '100',
        mrr: '200',
      },
      new_pricing: { quantity: 3, mrr: '300', status: 'active' },
    });
    expect(changed.subscription).toMatchObject({
      uuid: created.uuid,
      quantity: 3,
      status: 'active',
      current_mrr: '300.00',
    });
  });

  it('carries the pricing the waiting change will have (scheduled_pricing), for analytics to date it ahead', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code, plan } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    expectStatus(await org.api.patch(subscriptionPath(created.uuid), { quantity: 5, change_type: 'at_renewal' }), 200);
    const events = await platform().subscriptionChanges(org.organizationId);
    const scheduled = events.find((event) => event.change === 'change_scheduled')!;
    expect(scheduled).toMatchObject({
      change_type: 'at_renewal',
      effective_at: new Date('2026-03-01T09:00:00.000Z'),
      new_pricing: { quantity: 2, mrr: '200' },
      scheduled_pricing: { terms: terms.uuid, plan: plan.uuid, quantity: 5, mrr: '500', status: 'active' },
    });
    expect(events.find((event) => event.change === 'activated')!.scheduled_pricing).toBeUndefined();
  });
});

describe('update rules', () => {
  it('a subscription created with pre_renewal_invoicing refuses updates (400, nothing changes)', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { pre_renewal_invoicing: true });
    const refused = await org.api.patch(subscriptionPath(created.uuid), { quantity: 2 });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: {
        detail: 'A subscription with pre_renewal_invoicing cannot be updated; use pre_renewal_days_offset instead.',
      },
    });
    expect(await get(org.api, created.uuid)).toMatchObject({ quantity: 1 });
    expect(await org.charges()).toHaveLength(1);
  });

  it('prorate false with only the quantity changed: no document now; the next renewal bills the new quantity', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    await org.advance('2026-02-11T12:00:00.000Z');
    expectStatus(await org.api.patch(subscriptionPath(created.uuid), { quantity: 3, prorate: false }), 200);
    expect(await org.charges()).toHaveLength(1);
    await org.advance('2026-03-01T09:00:00.000Z');
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'renewal',
      amount: '300.00',
      lines: [['renewal', '2026-03-01', '2026-03-31', 3, '300.00']],
    });
  });

  it('early_renewal: a new period starts at the change and the unused remainder is credited', async () => {
    const org = await clockOrganization('2026-02-01T09:00:00.000Z');
    const { terms, code } = await fixture(org.api);
    const created = await subscribeTo(org.api, terms, code, { quantity: 2 });
    await org.advance('2026-02-11T12:00:00.000Z');
    const changed = await org.api.patch(subscriptionPath(created.uuid), { quantity: 3, early_renewal: true });
    expectStatus(changed, 200);
    expect(changed.body).toMatchObject({
      base_renewal_date: '2026-02-11T12:00:00.000Z',
      next_renewal_date: '2026-03-11T12:00:00.000Z',
    });
    expect((await org.charges()).map(summary)[1]).toEqual({
      kind: 'change',
      amount: '171.43',
      lines: [
        ['change_credit', '2026-02-11', '2026-02-28', 2, '-128.57'],
        ['change_charge', '2026-02-11', '2026-03-10', 3, '300.00'],
      ],
    });
  });
});
