/**
 * Plan terms (gaps.md §5): /api/v1/planterms/ GET list (filters plan, active, currency), POST;
 * /{uuid}/ GET, PATCH (active, code, price, revenue_group only), DELETE. Prices are decimal strings
 * (up to 20 digits, 6 decimals) shown with at least two decimals.
 */
import { describe, expect, it } from 'vitest';
import {
  createPlan,
  createPlanTerms,
  expectedPlanTerms,
  expectStatus,
  NOT_FOUND,
  newOrganization,
  PLANTERMS,
  pathOf,
  planPath,
  planTermsInput,
  planTermsPath,
  REQUIRED,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();
const tick = () => platform().clock.advanceMs(1_000);
const FIXED = 'This field cannot be changed after creation.';

describe('POST /api/v1/planterms/', () => {
  it('creates active plan terms: 201 with the full terms', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const input = planTermsInput(plan.uuid, {
      code: 'monthly-dkk',
      interval_type: 'month',
      interval_count: 3,
      price: '100.00',
      currency: 'DKK',
      backwards_charging: true,
      revenue_group: 'saas',
    });

    const response = await api.post(PLANTERMS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedPlanTerms(input));
    expect(response.body.active).toBe(true);
    expect((await api.get(planPath(plan.uuid))).body.planterms_set).toEqual([response.body]);
  });

  it.each(['day', 'week', 'month', 'year'])('takes interval_type %s', async (intervalType) => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const input = planTermsInput(plan.uuid, { interval_type: intervalType });

    const response = await api.post(PLANTERMS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedPlanTerms(input));
  });

  it.each([
    ['100', '100.00'],
    ['100.5', '100.50'],
    ['9.995', '9.995'],
    ['0.123456', '0.123456'],
    ['12.300000', '12.30'],
    ['0', '0.00'],
    [49, '49.00'],
    ['99999999999999.999999', '99999999999999.999999'],
  ])('stores price %j and shows it as %j', async (price, shown) => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);

    const response = await api.post(PLANTERMS, planTermsInput(plan.uuid, { price }));

    expectStatus(response, 201);
    expect(response.body.price).toBe(shown);
    expect((await api.get(planTermsPath(response.body.uuid))).body.price).toBe(shown);
  });

  it('ignores active sent on create: new terms are active', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);

    const response = await api.post(PLANTERMS, planTermsInput(plan.uuid, { active: false }));

    expectStatus(response, 201);
    expect(response.body.active).toBe(true);
  });

  it('requires everything but revenue_group', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(PLANTERMS, { revenue_group: 'x' });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      plan: [REQUIRED],
      code: [REQUIRED],
      interval_type: [REQUIRED],
      interval_count: [REQUIRED],
      price: [REQUIRED],
      currency: [REQUIRED],
      backwards_charging: [REQUIRED],
    });
  });

  it('validates each field with DRF wording', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);

    const response = await api.post(PLANTERMS, {
      plan: plan.uuid,
      code: '',
      interval_type: 'fortnight',
      interval_count: 0,
      price: 'ten',
      currency: 'XXX',
      backwards_charging: 'sometimes',
      revenue_group: 'r'.repeat(129),
    });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      code: ['This field may not be blank.'],
      interval_type: ['"fortnight" is not a valid choice.'],
      interval_count: ['Ensure this value is greater than or equal to 1.'],
      price: ['A valid number is required.'],
      currency: ['"XXX" is not a valid choice.'],
      backwards_charging: ['Must be a valid boolean.'],
      revenue_group: ['Ensure this field has no more than 128 characters.'],
    });
  });

  it.each([
    ['1.1234567', 'Ensure that there are no more than 6 decimal places.'],
    ['123456789012345678901', 'Ensure that there are no more than 20 digits in total.'],
    ['123456789012345', 'Ensure that there are no more than 14 digits before the decimal point.'],
    ['-1.00', 'Ensure this value is greater than or equal to 0.'],
    ['1e3', 'A valid number is required.'],
  ])('refuses price %j', async (price, message) => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);

    const response = await api.post(PLANTERMS, planTermsInput(plan.uuid, { price }));

    expectStatus(response, 400);
    expect(response.body).toEqual({ price: [message] });
  });

  it.each([
    [
      'an unknown uuid',
      '0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11',
      'Invalid pk "0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11" - object does not exist.',
    ],
    ['a malformed uuid', 'not-a-uuid', 'Must be a valid UUID.'],
  ])('refuses %s as plan with a field error', async (_label, planUuid, message) => {
    const { api } = await newOrganization(platform());

    const response = await api.post(PLANTERMS, planTermsInput(planUuid));

    expectStatus(response, 400);
    expect(response.body).toEqual({ plan: [message] });
  });
});

describe('GET /api/v1/planterms/{uuid}/', () => {
  it('returns the terms', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid);

    const response = await api.get(planTermsPath(terms.uuid));

    expectStatus(response, 200);
    expect(response.body).toEqual(terms);
  });

  it.each(['0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11', 'not-a-uuid'])('answers 404 for %s', async (uuid) => {
    const { api } = await newOrganization(platform());

    const response = await api.get(planTermsPath(uuid));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('GET /api/v1/planterms/', () => {
  it('lists terms oldest first and filters by plan, active and currency', async () => {
    const { api } = await newOrganization(platform());
    const pro = await createPlan(api);
    const basic = await createPlan(api);
    const t1 = await createPlanTerms(api, pro.uuid, { currency: 'DKK' });
    tick();
    const t2 = await createPlanTerms(api, pro.uuid, { currency: 'EUR' });
    tick();
    const t3 = await createPlanTerms(api, basic.uuid, { currency: 'EUR' });
    const deactivated = await api.patch(planTermsPath(t2.uuid), { active: false });
    expectStatus(deactivated, 200);
    const t2Inactive = deactivated.body;

    const codes = async (query: string) => {
      const response = await api.get(`${PLANTERMS}${query}`);
      expectStatus(response, 200);
      return response.body.results.map((terms: { uuid: string }) => terms.uuid);
    };

    const all = await api.get(PLANTERMS);
    expectStatus(all, 200);
    expect(all.body).toEqual({ count: 3, next: null, previous: null, results: [t1, t2Inactive, t3] });
    expect(await codes(`?plan=${pro.uuid}`)).toEqual([t1.uuid, t2.uuid]);
    expect(await codes('?active=true')).toEqual([t1.uuid, t3.uuid]);
    expect(await codes('?active=False')).toEqual([t2.uuid]);
    expect(await codes('?currency=EUR')).toEqual([t2.uuid, t3.uuid]);
    expect(await codes(`?plan=${pro.uuid}&active=1&currency=DKK`)).toEqual([t1.uuid]);
    expect(await codes('?plan=&active=&currency=')).toEqual([t1.uuid, t2.uuid, t3.uuid]);
    expect(await codes('?plan=0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11')).toEqual([]);
  });

  it('refuses invalid filter values with django-filter wording', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(`${PLANTERMS}?plan=nope&active=maybe&currency=XXX`);

    expectStatus(response, 400);
    expect(response.body).toEqual({
      plan: ['Enter a valid UUID.'],
      active: ['Select a valid choice. maybe is not one of the available choices.'],
      currency: ['Select a valid choice. XXX is not one of the available choices.'],
    });
  });

  it('pages and orders by code or price', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    await createPlanTerms(api, plan.uuid, { code: 'c', price: '5.00' });
    await createPlanTerms(api, plan.uuid, { code: 'a', price: '20.00' });
    await createPlanTerms(api, plan.uuid, { code: 'b', price: '10.5' });

    const page1 = await api.get(`${PLANTERMS}?ordering=code&page_size=2`);
    expectStatus(page1, 200);
    expect(page1.body.count).toBe(3);
    expect(page1.body.results.map((terms: { code: string }) => terms.code)).toEqual(['a', 'b']);
    const page2 = await api.get(pathOf(page1.body.next));
    expect(page2.body.results.map((terms: { code: string }) => terms.code)).toEqual(['c']);
    expect(page2.body.next).toBeNull();
    expect(page2.body.previous).not.toBeNull();

    const byPrice = await api.get(`${PLANTERMS}?ordering=-price`);
    expect(byPrice.body.results.map((terms: { price: string }) => terms.price)).toEqual(['20.00', '10.50', '5.00']);
  });
});

describe('PATCH /api/v1/planterms/{uuid}/', () => {
  it('changes active, code, price and revenue_group', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid, { revenue_group: 'old' });

    const response = await api.patch(planTermsPath(terms.uuid), {
      active: false,
      code: 'renamed',
      price: '120.5',
      revenue_group: null,
    });

    expectStatus(response, 200);
    expect(response.body).toEqual({ ...terms, active: false, code: 'renamed', price: '120.50', revenue_group: null });
    expect((await api.get(planTermsPath(terms.uuid))).body).toEqual(response.body);
  });

  it.each([
    ['currency', 'EUR'],
    ['backwards_charging', true],
    ['interval_type', 'year'],
    ['interval_count', 2],
  ])('refuses a change of %s: 400, nothing changes', async (name, value) => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid);

    const response = await api.patch(planTermsPath(terms.uuid), { [name]: value, price: '1.00' });

    expectStatus(response, 400);
    expect(response.body).toEqual({ [name]: [FIXED] });
    expect((await api.get(planTermsPath(terms.uuid))).body).toEqual(terms);
  });

  it('refuses moving terms to another plan, and names every fixed field sent', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const other = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid);

    const response = await api.patch(planTermsPath(terms.uuid), {
      plan: other.uuid,
      currency: 'DKK',
      backwards_charging: false,
    });

    expectStatus(response, 400);
    expect(response.body).toEqual({ plan: [FIXED], currency: [FIXED], backwards_charging: [FIXED] });
  });

  it('validates the values it takes', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid);

    const response = await api.patch(planTermsPath(terms.uuid), { price: '1.1234567', active: null, code: null });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      price: ['Ensure that there are no more than 6 decimal places.'],
      active: ['This field may not be null.'],
      code: ['This field may not be null.'],
    });
  });

  it('has no PUT: 405', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid);

    const response = await api.put(planTermsPath(terms.uuid), planTermsInput(plan.uuid));

    expectStatus(response, 405);
    expect(response.body).toEqual({ detail: 'Method "PUT" not allowed.' });
  });

  it('answers 404 for unknown terms', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.patch(planTermsPath('0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11'), { active: false });

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /api/v1/planterms/{uuid}/', () => {
  it('deletes terms no subscription uses: 204, then 404 and gone from the plan', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const kept = await createPlanTerms(api, plan.uuid);
    const terms = await createPlanTerms(api, plan.uuid);

    const response = await api.delete(planTermsPath(terms.uuid));

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await api.get(planTermsPath(terms.uuid))).status).toBe(404);
    expect((await api.get(planPath(plan.uuid))).body.planterms_set).toEqual([kept]);
    expect((await api.delete(planTermsPath(terms.uuid))).status).toBe(404);
  });
});
