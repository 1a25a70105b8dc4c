/**
 * Plans (gaps.md §5): POST /api/v1/plans/, GET list (envelope, each plan with planterms_set),
 * GET/PUT/PATCH /api/v1/plans/{uuid}/; unique code per organization; DRF validation messages.
 */
import { describe, expect, it } from 'vitest';
import {
  createPlan,
  createPlanTerms,
  expectedPlan,
  expectStatus,
  NOT_FOUND,
  newOrganization,
  PLANS,
  pathOf,
  planInput,
  planPath,
  REQUIRED,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();
/** Objects made in one test-clock instant tie on created_date; move the clock between them. */
const tick = () => platform().clock.advanceMs(1_000);

describe('POST /api/v1/plans/', () => {
  it('creates a plan: 201 with the full plan, description defaulting to ""', async () => {
    const { api } = await newOrganization(platform());
    const input = planInput('basic', { name: 'Basic', collect_vat: false, vat_type: 'physical' });

    const response = await api.post(PLANS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedPlan(input));
    expect(response.body).toMatchObject({ description: '', planterms_set: [], model: 'plan' });
  });

  it.each(['physical', 'services', 'unknown'])('takes vat_type %s and a description', async (vatType) => {
    const { api } = await newOrganization(platform());
    const input = planInput(`p-${vatType}`, { vat_type: vatType, description: 'All the things' });

    const response = await api.post(PLANS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedPlan(input));
  });

  it('requires name, code, collect_vat and vat_type', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(PLANS, { description: 'x' });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      name: [REQUIRED],
      code: [REQUIRED],
      collect_vat: [REQUIRED],
      vat_type: [REQUIRED],
    });
  });

  it('validates each field with DRF wording', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(PLANS, {
      name: '',
      code: 'x'.repeat(129),
      collect_vat: 'maybe',
      vat_type: 'digital',
      description: true,
    });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      name: ['This field may not be blank.'],
      code: ['Ensure this field has no more than 128 characters.'],
      collect_vat: ['Must be a valid boolean.'],
      vat_type: ['"digital" is not a valid choice.'],
      description: ['Not a valid string.'],
    });
  });

  it('refuses a second plan with the same code in the organization', async () => {
    const { api } = await newOrganization(platform());
    await createPlan(api, 'dup');

    const response = await api.post(PLANS, planInput('dup', { name: 'Other' }));

    expectStatus(response, 400);
    expect(response.body).toEqual({ code: ['plan with this code already exists.'] });
  });

  it('allows the same code in another organization', async () => {
    const a = await newOrganization(platform());
    const b = await newOrganization(platform());
    await createPlan(a.api, 'shared-code');

    const response = await b.api.post(PLANS, planInput('shared-code'));

    expectStatus(response, 201);
  });
});

describe('GET /api/v1/plans/{uuid}/', () => {
  it('returns the plan with its plan terms, oldest first', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api, 'with-terms');
    const monthly = await createPlanTerms(api, plan.uuid, { code: 'monthly' });
    tick();
    const yearly = await createPlanTerms(api, plan.uuid, { code: 'yearly', interval_type: 'year', price: '1000' });

    const response = await api.get(planPath(plan.uuid));

    expectStatus(response, 200);
    expect(response.body).toEqual({ ...plan, planterms_set: [monthly, yearly] });
  });

  it.each(['0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11', 'not-a-uuid'])('answers 404 for %s', async (uuid) => {
    const { api } = await newOrganization(platform());

    const response = await api.get(planPath(uuid));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('GET /api/v1/plans/', () => {
  it('lists the organization’s plans oldest first, each with planterms_set', async () => {
    const { api } = await newOrganization(platform());
    const first = await createPlan(api, 'list-1', { name: 'B plan' });
    tick();
    const second = await createPlan(api, 'list-2', { name: 'A plan' });
    const terms = await createPlanTerms(api, second.uuid);

    const response = await api.get(PLANS);

    expectStatus(response, 200);
    expect(response.body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [first, { ...second, planterms_set: [terms] }],
    });
  });

  it('orders by name and pages with page_size', async () => {
    const { api } = await newOrganization(platform());
    for (const name of ['Charlie', 'Alpha', 'Bravo']) await createPlan(api, name.toLowerCase(), { name });

    const page1 = await api.get(`${PLANS}?ordering=name&page_size=2`);
    expectStatus(page1, 200);
    expect(page1.body.count).toBe(3);
    expect(page1.body.results.map((plan: { name: string }) => plan.name)).toEqual(['Alpha', 'Bravo']);
    expect(page1.body.previous).toBeNull();
    expect(page1.body.next).toMatch(/\/api\/v1\/plans\/\?ordering=name&page=2&page_size=2$/);

    const page2 = await api.get(pathOf(page1.body.next));
    expectStatus(page2, 200);
    expect(page2.body.results.map((plan: { name: string }) => plan.name)).toEqual(['Charlie']);
    expect(page2.body.next).toBeNull();

    const descending = await api.get(`${PLANS}?ordering=-code`);
    expect(descending.body.results.map((plan: { code: string }) => plan.code)).toEqual(['charlie', 'bravo', 'alpha']);

    const pastTheEnd = await api.get(`${PLANS}?page=3&page_size=2`);
    expectStatus(pastTheEnd, 404);
    expect(pastTheEnd.body).toEqual({ detail: 'Invalid page.' });
  });
});

describe('PUT and PATCH /api/v1/plans/{uuid}/', () => {
  it('PATCH changes only what was sent', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api, 'patch-me', { description: 'Old' });

    const response = await api.patch(planPath(plan.uuid), { name: 'Renamed', collect_vat: false });

    expectStatus(response, 200);
    expect(response.body).toEqual({ ...plan, name: 'Renamed', collect_vat: false });
    expect((await api.get(planPath(plan.uuid))).body).toEqual(response.body);
  });

  it('PUT needs the required fields and replaces them', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api, 'put-me');

    const missing = await api.put(planPath(plan.uuid), { name: 'Only a name' });
    expectStatus(missing, 400);
    expect(missing.body).toEqual({ code: [REQUIRED], collect_vat: [REQUIRED], vat_type: [REQUIRED] });

    const input = planInput('put-new', { name: 'Replaced', vat_type: 'unknown', collect_vat: false });
    const response = await api.put(planPath(plan.uuid), input);
    expectStatus(response, 200);
    expect(response.body).toEqual(expectedPlan(input, { uuid: plan.uuid }));
  });

  it('keeps its own code and refuses another plan’s code', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api, 'mine');
    await createPlan(api, 'theirs');

    expectStatus(await api.patch(planPath(plan.uuid), { code: 'mine' }), 200);
    const response = await api.patch(planPath(plan.uuid), { code: 'theirs' });

    expectStatus(response, 400);
    expect(response.body).toEqual({ code: ['plan with this code already exists.'] });
    expect((await api.get(planPath(plan.uuid))).body.code).toBe('mine');
  });

  it('answers 404 for an unknown plan', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.patch(planPath('0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11'), { name: 'x' });

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });

  it('has no DELETE: 405', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);

    const response = await api.delete(planPath(plan.uuid));

    expectStatus(response, 405);
    expect(response.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
  });
});
