/**
 * Creating subscriptions (api-spec "Subscriptions", gaps.md §6): POST /api/v1/subscriptions/ with
 * the full payload, POST /api/v1/accounts/{code}/subscribe/ with four fields, and GET of one.
 * Every writable field with its constraint, DRF-shaped 400s naming each field.
 */
import { describe, expect, it } from 'vitest';
import { expectStatus, NOT_FOUND, newOrganization, planTermsPath, REQUIRED, usePlatform } from './helpers.js';
import {
  CHURN_REASONS,
  createChurnReason,
  createSubscription,
  embeddedChurnReason,
  expectedSubscription,
  invalidPk,
  noAccount,
  SUBSCRIPTIONS,
  subscribePath,
  subscriptionFixture,
  subscriptionInput,
  subscriptionPath,
  UNKNOWN_UUID,
} from './subscriptions-helpers.js';

const platform = usePlatform();
const now = () => platform().clock.now().toISOString();

describe('POST /api/v1/subscriptions/', () => {
  it('creates a subscription from the required fields: 201 with the whole subscription, defaults filled in', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api, { account: { company_name: 'Acme ApS' } });

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture));

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedSubscription(fixture, now()));
    const read = await api.get(subscriptionPath(response.body.uuid));
    expectStatus(read, 200);
    expect(read.body).toEqual(response.body);
  });

  it('stores every writable field as sent', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const reason = await createChurnReason(api);
    const fields = {
      start_date: '2026-03-01T00:00:00Z',
      quantity: 3,
      collection_method: 'payment_card',
      group_on_invoice: true,
      is_auto_renew_enabled: false,
      payment_terms: 30,
      pre_renewal_days_offset: 5,
      pre_renewal_invoicing: true,
      po_number: 'PO-1',
      invoice_supplement: 'Seats for the support team',
      override_price: '79.5',
      reference_person: 'Ada',
      account_reference_person: 'Grace',
      case_number: 'C-42',
      churn_reason: reason.uuid,
      custom_churn_reason: 'Moved to a competitor',
      custom_fields: { cost_center: 'CC-7', tags: ['a', 'b'] },
    };

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, fields));

    expectStatus(response, 201);
    expect(response.body).toMatchObject({
      ...fields,
      start_date: '2026-03-01T00:00:00.000Z',
      override_price: '79.50',
      churn_reason: embeddedChurnReason(reason),
      effective_payment_terms: '30',
      status: 'scheduled',
    });
    expect((await api.get(subscriptionPath(response.body.uuid))).body).toEqual(response.body);
  });

  it('takes null for the nullable fields', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const nulls = {
      start_date: null,
      payment_terms: null,
      invoice_supplement: null,
      override_price: null,
      churn_reason: null,
      custom_churn_reason: null,
    };

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, nulls));

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedSubscription(fixture, now()));
  });

  it('requires account, terms and collection_method', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(SUBSCRIPTIONS, {});

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [REQUIRED], terms: [REQUIRED], collection_method: [REQUIRED] });
  });

  const long = (length: number) => 'x'.repeat(length);
  it.each([
    [{ quantity: -1 }, { quantity: ['Ensure this value is greater than or equal to 0.'] }],
    [{ quantity: 2_147_483_648 }, { quantity: ['Ensure this value is less than or equal to 2147483647.'] }],
    [{ quantity: 1.5 }, { quantity: ['A valid integer is required.'] }],
    [{ quantity: null }, { quantity: ['This field may not be null.'] }],
    [{ payment_terms: -1 }, { payment_terms: ['Ensure this value is greater than or equal to 0.'] }],
    [{ payment_terms: 2_147_483_648 }, { payment_terms: ['Ensure this value is less than or equal to 2147483647.'] }],
    [
      { pre_renewal_days_offset: -1 },
      { pre_renewal_days_offset: ['Ensure this value is greater than or equal to 0.'] },
    ],
    [
      { pre_renewal_days_offset: 32_768 },
      { pre_renewal_days_offset: ['Ensure this value is less than or equal to 32767.'] },
    ],
    [{ po_number: long(129) }, { po_number: ['Ensure this field has no more than 128 characters.'] }],
    [{ reference_person: long(129) }, { reference_person: ['Ensure this field has no more than 128 characters.'] }],
    [
      { account_reference_person: long(129) },
      { account_reference_person: ['Ensure this field has no more than 128 characters.'] },
    ],
    [{ case_number: long(129) }, { case_number: ['Ensure this field has no more than 128 characters.'] }],
    [
      { custom_churn_reason: long(101) },
      { custom_churn_reason: ['Ensure this field has no more than 100 characters.'] },
    ],
    // po_number takes null as "" (gaps.md §3); quantity has no blank value.
    [{ quantity: null }, { quantity: ['This field may not be null.'] }],
    [{ override_price: 'cheap' }, { override_price: ['A valid number is required.'] }],
    [{ override_price: '-1' }, { override_price: ['Ensure this value is greater than or equal to 0.'] }],
    [{ override_price: '1.0000001' }, { override_price: ['Ensure that there are no more than 6 decimal places.'] }],
    [{ collection_method: 'cash' }, { collection_method: ['"cash" is not a valid choice.'] }],
    [{ terms: 'nope' }, { terms: ['Must be a valid UUID.'] }],
    [{ churn_reason: 'nope' }, { churn_reason: ['Must be a valid UUID.'] }],
    [
      { start_date: 'tomorrow' },
      {
        start_date: [
          'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
        ],
      },
    ],
    [{ group_on_invoice: 'maybe' }, { group_on_invoice: ['Must be a valid boolean.'] }],
    [{ is_auto_renew_enabled: null }, { is_auto_renew_enabled: ['This field may not be null.'] }],
    [
      { custom_fields: 'x' },
      { custom_fields: { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] } },
    ],
    [{ account: '' }, { account: ['This field may not be blank.'] }],
  ])('refuses %j naming the field', async (overrides, errors) => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, overrides));

    expectStatus(response, 400);
    expect(response.body).toEqual(errors);
  });

  it('takes the bounds themselves', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const bounds = {
      quantity: 2_147_483_647,
      payment_terms: 0,
      pre_renewal_days_offset: 32_767,
      po_number: 'p'.repeat(128),
      reference_person: 'r'.repeat(128),
      account_reference_person: 'a'.repeat(128),
      case_number: 'c'.repeat(128),
      custom_churn_reason: 'x'.repeat(100),
      start_date: '2026-06-01T00:00:00Z',
    };

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, bounds));

    expectStatus(response, 201);
    expect(response.body).toMatchObject({
      ...bounds,
      start_date: '2026-06-01T00:00:00.000Z',
      effective_payment_terms: '0',
    });
  });

  it('takes quantity 0', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, { quantity: 0 }));

    expectStatus(response, 201);
    expect(response.body).toMatchObject({ quantity: 0, current_mrr: '0.00' });
  });

  it('refuses an unknown account code: 400 on account (never 404: the URL exists)', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, { account: 'nobody' }));

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [noAccount('nobody')] });
  });

  it('refuses unknown plan terms: 400 on terms', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, { terms: UNKNOWN_UUID }));

    expectStatus(response, 400);
    expect(response.body).toEqual({ terms: [invalidPk(UNKNOWN_UUID)] });
  });

  it('refuses inactive plan terms: 400 on terms (gaps.md §5)', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    expectStatus(await api.patch(planTermsPath(fixture.terms.uuid), { active: false }), 200);

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture));

    expectStatus(response, 400);
    expect(response.body).toEqual({
      terms: ['These plan terms are inactive; no new subscriptions can be started with them.'],
    });
  });

  it('refuses an unknown or deleted churn reason: 400 on churn_reason', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const deleted = await createChurnReason(api, 'Gone');
    expectStatus(await api.delete(`${CHURN_REASONS}${deleted.uuid}/`), 204);

    const unknown = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, { churn_reason: UNKNOWN_UUID }));
    const gone = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, { churn_reason: deleted.uuid }));

    expectStatus(unknown, 400);
    expect(unknown.body).toEqual({ churn_reason: [invalidPk(UNKNOWN_UUID)] });
    expectStatus(gone, 400);
    expect(gone.body).toEqual({ churn_reason: [invalidPk(deleted.uuid)] });
  });

  it('names both an unknown account and an unknown churn reason in one answer', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(
      SUBSCRIPTIONS,
      subscriptionInput(fixture, { account: 'nobody', churn_reason: UNKNOWN_UUID }),
    );

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [noAccount('nobody')], churn_reason: [invalidPk(UNKNOWN_UUID)] });
  });

  it('refuses pre_renewal_days_offset on backwards-charging terms (only forward-charging plans)', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api, { terms: { backwards_charging: true } });

    const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, { pre_renewal_days_offset: 3 }));

    expectStatus(response, 400);
    expect(response.body).toEqual({
      pre_renewal_days_offset: ['Only forward-charging plan terms can be invoiced before the renewal date.'],
    });
  });

  it('creates one more subscription and leaves the account’s others untouched', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const first = await createSubscription(api, fixture);

    const second = await createSubscription(api, fixture, { quantity: 2 });

    expect(second.uuid).not.toBe(first.uuid);
    expect((await api.get(subscriptionPath(first.uuid))).body).toEqual(first);
  });
});

describe('POST /api/v1/accounts/{code}/subscribe/', () => {
  it('subscribes the account: 200 (an action, gaps.md §1) with the new subscription', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(subscribePath(fixture.code), {
      terms: fixture.terms.uuid,
      quantity: 2,
      collection_method: 'invoice',
    });

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedSubscription(fixture, now(), { quantity: 2 }));
    expect((await api.get(subscriptionPath(response.body.uuid))).body).toEqual(response.body);
  });

  it('takes group_on_invoice and nothing else of the writable fields', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(subscribePath(fixture.code), {
      terms: fixture.terms.uuid,
      quantity: 1,
      collection_method: 'direct_debit',
      group_on_invoice: true,
      po_number: 'ignored',
      payment_terms: 60,
    });

    expectStatus(response, 200);
    expect(response.body).toMatchObject({
      collection_method: 'direct_debit',
      group_on_invoice: true,
      po_number: '',
      payment_terms: null,
    });
  });

  it('cancels the account’s other subscriptions and touches no other account’s', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const other = await subscriptionFixture(api);
    const replaced = await createSubscription(api, fixture);
    const untouched = await createSubscription(api, other);

    const response = await api.post(subscribePath(fixture.code), {
      terms: fixture.terms.uuid,
      quantity: 1,
      collection_method: 'invoice',
    });

    expectStatus(response, 200);
    expect((await api.get(subscriptionPath(replaced.uuid))).body.status).toBe('expired');
    expect((await api.get(subscriptionPath(untouched.uuid))).body).toEqual(untouched);
  });

  it('requires terms, quantity and collection_method', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(subscribePath(fixture.code), {});

    expectStatus(response, 400);
    expect(response.body).toEqual({ terms: [REQUIRED], quantity: [REQUIRED], collection_method: [REQUIRED] });
  });

  it.each([
    [{ quantity: 0 }, { quantity: ['Ensure this value is greater than or equal to 1.'] }],
    [{ quantity: 2_147_483_648 }, { quantity: ['Ensure this value is less than or equal to 2147483647.'] }],
    [{ collection_method: 'cash' }, { collection_method: ['"cash" is not a valid choice.'] }],
    [{ terms: 'x' }, { terms: ['Must be a valid UUID.'] }],
    [{ group_on_invoice: null }, { group_on_invoice: ['This field may not be null.'] }],
  ])('refuses %j', async (overrides, errors) => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(subscribePath(fixture.code), {
      terms: fixture.terms.uuid,
      quantity: 1,
      collection_method: 'invoice',
      ...overrides,
    });

    expectStatus(response, 400);
    expect(response.body).toEqual(errors);
  });

  it('refuses unknown terms: 400 on terms', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(subscribePath(fixture.code), {
      terms: UNKNOWN_UUID,
      quantity: 1,
      collection_method: 'invoice',
    });

    expectStatus(response, 400);
    expect(response.body).toEqual({ terms: [invalidPk(UNKNOWN_UUID)] });
  });

  it('answers 404 for an unknown account code', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const response = await api.post(subscribePath('nobody'), {
      terms: fixture.terms.uuid,
      quantity: 1,
      collection_method: 'invoice',
    });

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });

  it('answers GET with 405 (public), and a write without the trailing slash with 404', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);

    const get = await api.get(subscribePath(fixture.code));
    const unslashed = await api.post(subscribePath(fixture.code).slice(0, -1), {});

    expectStatus(get, 405);
    expect(get.body).toEqual({ detail: 'Method "GET" not allowed.' });
    expect(get.headers.get('allow')).toBe('POST');
    expectStatus(unslashed, 404);
    expect(unslashed.body).toEqual({ detail: `URL must end with a slash: ${subscribePath(fixture.code)}` });
  });
});

describe('GET /api/v1/subscriptions/{uuid}/', () => {
  it('answers 404 for an unknown uuid and for a path that is not a uuid', async () => {
    const { api } = await newOrganization(platform());

    for (const path of [subscriptionPath(UNKNOWN_UUID), subscriptionPath('not-a-uuid')]) {
      const response = await api.get(path);
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
  });

  it('redirects a GET without the trailing slash, and has no DELETE (405)', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const subscription = await createSubscription(api, fixture);

    const unslashed = await api.get(subscriptionPath(subscription.uuid).slice(0, -1));
    const removed = await api.delete(subscriptionPath(subscription.uuid));

    expectStatus(unslashed, 301);
    expect(unslashed.headers.get('location')).toBe(subscriptionPath(subscription.uuid));
    expectStatus(removed, 405);
    expect(removed.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
  });
});
