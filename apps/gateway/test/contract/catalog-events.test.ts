/**
 * Catalog events and audit: plan.created/updated and plan_terms.created/updated/deleted are
 * published by the subscriptions service (subjects subscriptions.<type>) with the new state, the
 * organization, the aggregate and the request id; refused writes publish nothing; every change
 * leaves an audit row naming the API user, X-Client-System, X-User and request id.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogEvent } from '../support/platform.js';
import {
  createPlan,
  createPlanTerms,
  expectStatus,
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

async function eventsOf(organizationId: string): Promise<CatalogEvent[]> {
  return (await platform().catalogEvents()).filter((event) => event.organization_id === organizationId);
}

describe('catalog events', () => {
  it('plan create and update publish plan.created and plan.updated with the plan’s state', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const plan = await createPlan(api, 'ev-plan', { name: 'Before', vat_type: 'physical' });
    const updated = await api.patch(
      planPath(plan.uuid),
      { name: 'After' },
      { headers: { 'X-Request-ID': 'req-plan-1' } },
    );
    expectStatus(updated, 200);

    const events = await eventsOf(organizationId);

    expect(events.map((event) => [event.event_type, event.aggregate_type, event.aggregate_id])).toEqual([
      ['plan.created', 'plan', plan.uuid],
      ['plan.updated', 'plan', plan.uuid],
    ]);
    expect(events[0]!.plan).toEqual({
      uuid: plan.uuid,
      name: 'Before',
      code: 'ev-plan',
      description: '',
      collect_vat: true,
      vat_type: 'physical',
      planterms: [],
    });
    expect(events[1]!.plan.name).toBe('After');
    expect(events[1]!.request_id).toBe('req-plan-1');
  });

  it('terms create, update and delete publish plan_terms.created, .updated, .deleted in order', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid, { code: 'ev-terms', price: '10', revenue_group: 'g' });
    expectStatus(await api.patch(planTermsPath(terms.uuid), { price: '12.345' }), 200);
    expect((await api.delete(planTermsPath(terms.uuid))).status).toBe(204);

    const events = (await eventsOf(organizationId)).filter((event) => event.aggregate_type === 'plan_terms');

    expect(events.map((event) => event.event_type)).toEqual([
      'plan_terms.created',
      'plan_terms.updated',
      'plan_terms.deleted',
    ]);
    for (const event of events) expect(event.aggregate_id).toBe(terms.uuid);
    expect(events[0]!.plan_terms).toEqual({
      uuid: terms.uuid,
      plan: plan.uuid,
      code: 'ev-terms',
      interval_type: 'month',
      interval_count: 1,
      price: '10.00',
      currency: 'DKK',
      backwards_charging: false,
      active: true,
      revenue_group: 'g',
    });
    expect(events[1]!.plan_terms.price).toBe('12.345');
    expect(events[2]!.plan_terms.price).toBe('12.345');
  });

  it('refused writes publish nothing', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const plan = await createPlan(api, 'only-one');
    const terms = await createPlanTerms(api, plan.uuid);
    const before = await eventsOf(organizationId);

    expectStatus(await api.post(PLANS, planInput('only-one')), 400);
    expectStatus(await api.patch(planTermsPath(terms.uuid), { currency: 'EUR' }), 400);
    expectStatus(await api.post(PLANTERMS, planTermsInput('0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11')), 400);

    expect(await eventsOf(organizationId)).toEqual(before);
  });
});

describe('catalog audit log', () => {
  it('records each change with the caller, X-Client-System, X-User and request id', async () => {
    const { api, organizationId, apiUserId } = await newOrganization(platform());
    const headers = { 'X-User': 'jane', 'X-Request-ID': 'req-audit-catalog' };
    const created = await api.post(PLANS, planInput('audited'), { headers });
    expectStatus(created, 201);
    const plan = created.body;
    expectStatus(await api.put(planPath(plan.uuid), planInput('audited', { name: 'Put' }), { headers }), 200);
    expectStatus(await api.patch(planPath(plan.uuid), { name: 'Patched' }, { headers }), 200);
    const terms = await api.post(PLANTERMS, planTermsInput(plan.uuid), { headers });
    expectStatus(terms, 201);
    expectStatus(await api.patch(planTermsPath(terms.body.uuid), { active: false }, { headers }), 200);
    expect((await api.delete(planTermsPath(terms.body.uuid), { headers })).status).toBe(204);

    const log = await platform().subscriptionsAuditLog(organizationId);

    const common = {
      organization_id: organizationId,
      api_user_id: apiUserId,
      client_system: 'contract-tests',
      external_user: 'jane',
      request_id: 'req-audit-catalog',
    };
    expect(log.map(({ action, object_type }) => [action, object_type]).sort()).toEqual(
      [
        ['plan.create', 'plan'],
        ['plan.replace', 'plan'],
        ['plan.update', 'plan'],
        ['plan_terms.create', 'plan_terms'],
        ['plan_terms.update', 'plan_terms'],
        ['plan_terms.delete', 'plan_terms'],
      ].sort(),
    );
    for (const row of log) {
      expect(row).toMatchObject(common);
      expect(row.object_id).toBe(row.object_type === 'plan' ? plan.uuid : terms.body.uuid);
    }
  });
});
