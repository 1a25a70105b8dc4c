/**
 * Catalog tenancy: organization B gets 404 {"detail": "Not found."} for every plan and plan terms
 * endpoint naming A's objects, sees none of them in lists, cannot attach terms to A's plan (400 on
 * `plan`), and none of its attempts change A's catalog.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestOrganization } from '../support/platform.js';
import {
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  PLANS,
  PLANTERMS,
  planInput,
  planPath,
  planTermsInput,
  planTermsPath,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

describe('organization B cannot see or touch organization A’s catalog', () => {
  let a: TestOrganization;
  let b: TestOrganization;
  let planOfA: Json & { uuid: string };
  let termsOfA: Json & { uuid: string };

  const snapshotOfA = async () => ({
    plan: (await a.api.get(planPath(planOfA.uuid))).body,
    terms: (await a.api.get(planTermsPath(termsOfA.uuid))).body,
    plans: (await a.api.get(PLANS)).body,
    planterms: (await a.api.get(PLANTERMS)).body,
  });
  let before: Awaited<ReturnType<typeof snapshotOfA>>;

  beforeAll(async () => {
    a = await newOrganization(platform(), { name: 'Org A' });
    b = await newOrganization(platform(), { name: 'Org B' });
    planOfA = await createPlan(a.api, 'a-plan');
    termsOfA = await createPlanTerms(a.api, planOfA.uuid);
    before = await snapshotOfA();
    expect(before.plans.count).toBe(1);
  });

  it('lists nothing of A', async () => {
    for (const path of [PLANS, PLANTERMS, `${PLANTERMS}?plan=${planOfA.uuid}`]) {
      const response = await b.api.get(path);
      expectStatus(response, 200);
      expect(response.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    }
  });

  it.each([
    ['GET plan', (api: TestOrganization['api']) => api.get(planPath(planOfA.uuid))],
    ['PUT plan', (api: TestOrganization['api']) => api.put(planPath(planOfA.uuid), planInput('b-takes'))],
    ['PATCH plan', (api: TestOrganization['api']) => api.patch(planPath(planOfA.uuid), { name: 'B was here' })],
    ['GET terms', (api: TestOrganization['api']) => api.get(planTermsPath(termsOfA.uuid))],
    ['PATCH terms', (api: TestOrganization['api']) => api.patch(planTermsPath(termsOfA.uuid), { active: false })],
    ['DELETE terms', (api: TestOrganization['api']) => api.delete(planTermsPath(termsOfA.uuid))],
  ])('%s of A answers 404 and changes nothing', async (_label, call) => {
    const response = await call(b.api);

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
    expect(await snapshotOfA()).toEqual(before);
  });

  it('POST terms naming A’s plan is a field error on plan', async () => {
    const response = await b.api.post(PLANTERMS, planTermsInput(planOfA.uuid));

    expectStatus(response, 400);
    expect(response.body).toEqual({ plan: [`Invalid pk "${planOfA.uuid}" - object does not exist.`] });
    expect(await snapshotOfA()).toEqual(before);
  });

  it('B may use A’s plan code for its own plan', async () => {
    expectStatus(await b.api.post(PLANS, planInput('a-plan')), 201);
    expect(await snapshotOfA()).toEqual(before);
  });
});
