/**
 * PUT and PATCH /api/v1/subscriptions/{uuid}/ (both partial, api-spec "Versioning" 3) with the
 * plain fields and the shapes of change_type / prorate_date / change_renewal / early_renewal, and
 * the HTTP contract of the actions: cancel (body shapes), reactivate, renew-now. What the engine
 * charges is the engine's acceptance tests' business; here: status codes, bodies, field names.
 */
import { describe, expect, it } from 'vitest';
import { expectStatus, NOT_FOUND, newOrganization, usePlatform } from './helpers.js';
import {
  createChurnReason,
  createSubscription,
  embeddedChurnReason,
  invalidPk,
  subscriptionFixture,
  subscriptionPath,
  UNKNOWN_UUID,
} from './subscriptions-helpers.js';

const platform = usePlatform();
const tick = () => platform().clock.advanceMs(1_000);
const now = () => platform().clock.now().toISOString();

async function subscriptionOf(overrides = {}) {
  const { api } = await newOrganization(platform());
  const fixture = await subscriptionFixture(api);
  const subscription = await createSubscription(api, fixture, overrides);
  await tick();
  return { api, fixture, subscription, path: subscriptionPath(subscription.uuid) };
}

describe('PATCH and PUT: plain fields', () => {
  it.each(['patch', 'put'] as const)(
    '%s changes only what was sent and returns the whole subscription',
    async (method) => {
      const { api, subscription, path } = await subscriptionOf({ po_number: 'PO-1', case_number: 'C-1' });
      const reason = await createChurnReason(api);
      const changes = {
        collection_method: 'payment_card',
        group_on_invoice: true,
        is_auto_renew_enabled: false,
        payment_terms: 45,
        pre_renewal_days_offset: 7,
        po_number: 'PO-2',
        invoice_supplement: 'Extra line',
        reference_person: 'Ada',
        account_reference_person: 'Grace',
        churn_reason: reason.uuid,
        custom_churn_reason: 'Budget',
        custom_fields: { region: 'north' },
      };

      const response = await api[method](path, changes);

      expectStatus(response, 200);
      expect(response.body).toEqual({
        ...subscription,
        ...changes,
        churn_reason: embeddedChurnReason(reason),
        effective_payment_terms: '45',
        last_modified_date: now(),
      });
      expect((await api.get(path)).body).toEqual(response.body);
    },
  );

  it('clears nullable fields with null', async () => {
    const { api, subscription, path } = await subscriptionOf({
      payment_terms: 10,
      invoice_supplement: 'x',
      custom_churn_reason: 'y',
    });

    const response = await api.patch(path, {
      payment_terms: null,
      invoice_supplement: null,
      custom_churn_reason: null,
    });

    expectStatus(response, 200);
    expect(response.body).toEqual({
      ...subscription,
      payment_terms: null,
      invoice_supplement: null,
      custom_churn_reason: null,
      effective_payment_terms: '14',
      last_modified_date: now(),
    });
  });

  it('ignores fields that are not writable on update (account, pre_renewal_invoicing, response-only fields)', async () => {
    const { api, subscription, path } = await subscriptionOf();
    const other = await subscriptionFixture(api);

    const response = await api.patch(path, {
      account: other.code,
      pre_renewal_invoicing: true,
      status: 'expired',
      current_mrr: '1.00',
      uuid: UNKNOWN_UUID,
    });

    expectStatus(response, 200);
    expect(response.body).toEqual({ ...subscription, last_modified_date: response.body.last_modified_date });
  });

  it('an empty body changes nothing', async () => {
    const { api, subscription, path } = await subscriptionOf();

    const response = await api.patch(path, {});

    expectStatus(response, 200);
    expect({ ...response.body, last_modified_date: subscription.last_modified_date }).toEqual(subscription);
  });

  const long = (length: number) => 'x'.repeat(length);
  it.each([
    [{ quantity: -1 }, { quantity: ['Ensure this value is greater than or equal to 0.'] }],
    [{ payment_terms: -1 }, { payment_terms: ['Ensure this value is greater than or equal to 0.'] }],
    [
      { pre_renewal_days_offset: 32_768 },
      { pre_renewal_days_offset: ['Ensure this value is less than or equal to 32767.'] },
    ],
    [{ po_number: long(129) }, { po_number: ['Ensure this field has no more than 128 characters.'] }],
    [
      { custom_churn_reason: long(101) },
      { custom_churn_reason: ['Ensure this field has no more than 100 characters.'] },
    ],
    [{ collection_method: null }, { collection_method: ['This field may not be null.'] }],
    [{ terms: null }, { terms: ['This field may not be null.'] }],
    [{ override_price: 'x' }, { override_price: ['A valid number is required.'] }],
    [{ churn_reason: UNKNOWN_UUID }, { churn_reason: [invalidPk(UNKNOWN_UUID)] }],
    [{ terms: UNKNOWN_UUID }, { terms: [invalidPk(UNKNOWN_UUID)] }],
    [{ change_type: 'later' }, { change_type: ['"later" is not a valid choice.'] }],
    [{ prorate_date: '2026-02-01T00:00:00Z' }, { prorate_date: ['Only allowed with change_type at_specified_time.'] }],
    [
      { quantity: 2, change_type: 'at_specified_time' },
      { prorate_date: ['This field is required with change_type at_specified_time.'] },
    ],
    [
      { quantity: 2, change_type: 'immediate', change_renewal: 1 },
      { change_renewal: ['Only allowed with change_type at_renewal.'] },
    ],
    [
      { quantity: 2, change_type: 'at_renewal', change_renewal: 12 },
      { change_renewal: ['Ensure this value is less than or equal to 11.'] },
    ],
    [
      { quantity: 2, change_type: 'at_renewal', early_renewal: true },
      { early_renewal: ['Only allowed with change_type immediate or at_specified_time.'] },
    ],
    [{ prorate: 'sometimes' }, { prorate: ['Must be a valid boolean.'] }],
  ])('refuses %j naming the field, changing nothing', async (body, errors) => {
    const { api, subscription, path } = await subscriptionOf();

    const response = await api.patch(path, body);

    expectStatus(response, 400);
    expect(response.body).toEqual(errors);
    expect((await api.get(path)).body).toEqual(subscription);
  });

  it('refuses any update while pre_renewal_invoicing is set (api-spec update rule 2), changing nothing', async () => {
    const { api, subscription, path } = await subscriptionOf({ pre_renewal_invoicing: true });

    const response = await api.patch(path, { po_number: 'PO-9' });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      detail: 'A subscription with pre_renewal_invoicing cannot be updated; use pre_renewal_days_offset instead.',
    });
    expect((await api.get(path)).body).toEqual(subscription);
  });

  it('refuses a cancel_date in the past: 400 on cancel_date', async () => {
    const { api, subscription, path } = await subscriptionOf();

    const response = await api.post(`${path}cancel/`, {
      cancellation_type: 'at_specified_time',
      cancel_date: '2025-01-01T00:00:00Z',
    });

    expectStatus(response, 400);
    expect(response.body).toEqual({ cancel_date: ['The cancellation must be in the future.'] });
    expect((await api.get(path)).body).toEqual(subscription);
  });

  it('schedules a quantity change at the next renewal and lists it in scheduled_changes', async () => {
    const { api, subscription, fixture, path } = await subscriptionOf();

    const response = await api.patch(path, { quantity: 3, change_type: 'at_renewal', change_renewal: 0 });

    expectStatus(response, 200);
    expect(response.body.quantity).toBe(1);
    expect(response.body.scheduled_changes).toEqual([
      {
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        date: subscription.next_renewal_date,
        terms: fixture.terms.uuid,
        quantity: 3,
        change_type: 'at_renewal',
        model: 'scheduled_change',
        schema: expect.stringMatching(/^\d{4}-\d{2}-\d{2}-scheduled_change$/),
      },
    ]);
  });

  it('answers 404 for an unknown subscription and a path that is not a uuid; a write without the slash is 404', async () => {
    const { api, path } = await subscriptionOf();

    for (const target of [subscriptionPath(UNKNOWN_UUID), subscriptionPath('nope')]) {
      const response = await api.patch(target, { po_number: 'x' });
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    const unslashed = await api.put(path.slice(0, -1), { po_number: 'x' });
    expectStatus(unslashed, 404);
    expect(unslashed.body).toEqual({ detail: `URL must end with a slash: ${path}` });
  });
});

describe('POST /api/v1/subscriptions/{uuid}/cancel/', () => {
  it('requires cancellation_type and checks its companions', async () => {
    const { api, subscription, path } = await subscriptionOf();
    const cancel = `${path}cancel/`;

    const cases: Array<[object, object]> = [
      [{}, { cancellation_type: ['This field is required.'] }],
      [{ cancellation_type: 'never' }, { cancellation_type: ['"never" is not a valid choice.'] }],
      [
        { cancellation_type: 'today', cancel_renewal: 0 },
        { cancel_renewal: ['Only allowed with cancellation_type at_renewal.'] },
      ],
      [
        { cancellation_type: 'at_renewal', cancel_renewal: 12 },
        { cancel_renewal: ['Ensure this value is less than or equal to 11.'] },
      ],
      [
        { cancellation_type: 'at_specified_time' },
        { cancel_date: ['This field is required with cancellation_type at_specified_time.'] },
      ],
      [
        { cancellation_type: 'full_refund', cancel_date: '2026-02-01T00:00:00Z' },
        { cancel_date: ['Only allowed with cancellation_type at_specified_time.'] },
      ],
      [
        { cancellation_type: 'at_specified_time', cancel_date: 'soon' },
        {
          cancel_date: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await api.post(cancel, body);
      expectStatus(response, 400);
      expect(response.body).toEqual(errors);
    }
    expect((await api.get(path)).body).toEqual(subscription);
  });

  it('cancels at renewal: 200 with the not_renewing subscription; a second cancel is refused with 400', async () => {
    const { api, subscription, path } = await subscriptionOf();

    const response = await api.post(`${path}cancel/`, { cancellation_type: 'at_renewal' });
    const again = await api.post(`${path}cancel/`, { cancellation_type: 'today' });

    expectStatus(response, 200);
    expect(response.body).toMatchObject({ uuid: subscription.uuid, status: 'not_renewing' });
    expectStatus(again, 400);
    expect(again.body).toEqual({ detail: 'A subscription with status not_renewing cannot be cancelled.' });
  });

  it('answers GET with 405 and an unknown subscription with 404', async () => {
    const { api, path } = await subscriptionOf();

    const get = await api.get(`${path}cancel/`);
    const unknown = await api.post(`${subscriptionPath(UNKNOWN_UUID)}cancel/`, { cancellation_type: 'today' });

    expectStatus(get, 405);
    expect(get.headers.get('allow')).toBe('POST');
    expectStatus(unknown, 404);
    expect(unknown.body).toEqual(NOT_FOUND);
  });
});

describe('reactivate and renew-now', () => {
  it('reactivates a not_renewing subscription: 200 with the active subscription, no body needed', async () => {
    const { api, path } = await subscriptionOf();
    expectStatus(await api.post(`${path}cancel/`, { cancellation_type: 'at_renewal' }), 200);

    const response = await api.post(`${path}reactivate/`);

    expectStatus(response, 200);
    expect(response.body).toMatchObject({ status: 'active', end_date: null });
  });

  it('refuses to reactivate an active subscription: 400 with a detail', async () => {
    const { api, path } = await subscriptionOf();

    const response = await api.post(`${path}reactivate/`);

    expectStatus(response, 400);
    expect(response.body).toEqual({ detail: 'A subscription with status active cannot be reactivated.' });
  });

  it('answers renew-now on both the hyphen and the underscore path; a scheduled subscription is refused with 400', async () => {
    const { api, path } = await subscriptionOf({ start_date: '2026-12-01T00:00:00Z' });

    for (const action of ['renew-now/', 'renew_now/']) {
      const response = await api.post(`${path}${action}`);
      expectStatus(response, 400);
      expect(response.body).toEqual({ detail: 'A subscription with status scheduled cannot be renewed now.' });
    }
  });

  it('answers 404 for an unknown subscription and 405 for GET', async () => {
    const { api, path } = await subscriptionOf();

    for (const action of ['reactivate/', 'renew-now/']) {
      const unknown = await api.post(`${subscriptionPath(UNKNOWN_UUID)}${action}`);
      expectStatus(unknown, 404);
      expect(unknown.body).toEqual(NOT_FOUND);
      expectStatus(await api.get(`${path}${action}`), 405);
    }
  });
});
