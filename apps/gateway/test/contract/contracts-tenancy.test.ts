/**
 * Contracts tenancy, events and audit: organization B gets 404 for every contract and tier
 * endpoint naming A's account or objects, cannot use A's plan terms (400 on plan_terms), and
 * changes nothing of A. Every change publishes contract.created/updated/deleted (a tier change is
 * a contract.updated) with the contract's state and leaves an audit row.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestOrganization } from '../support/platform.js';
import {
  contractFixture,
  contractInput,
  contractPath,
  contractsPath,
  createAccount,
  createContract,
  createTier,
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  tierInput,
  tierPath,
  tiersPath,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

describe('organization B cannot see or touch organization A’s contracts', () => {
  let a: TestOrganization;
  let b: TestOrganization;
  let codeOfA: string;
  let termsOfA: Json & { uuid: string };
  let contractOfA: Json & { uuid: string };
  let tierOfA: Json & { id: string };

  const snapshotOfA = async () => ({
    contract: (await a.api.get(contractPath(codeOfA, contractOfA.uuid))).body,
    contracts: (await a.api.get(contractsPath(codeOfA))).body,
  });
  let before: Awaited<ReturnType<typeof snapshotOfA>>;

  beforeAll(async () => {
    a = await newOrganization(platform(), { name: 'Org A' });
    b = await newOrganization(platform(), { name: 'Org B' });
    const fixture = await contractFixture(a.api);
    codeOfA = fixture.code;
    termsOfA = fixture.terms;
    contractOfA = await createContract(a.api, codeOfA, termsOfA.uuid);
    tierOfA = await createTier(a.api, codeOfA, contractOfA.uuid);
    before = await snapshotOfA();
  });

  type Api = TestOrganization['api'];
  it.each([
    ['GET list', (api: Api) => api.get(contractsPath(codeOfA))],
    ['POST', (api: Api) => api.post(contractsPath(codeOfA), contractInput(termsOfA.uuid))],
    ['GET', (api: Api) => api.get(contractPath(codeOfA, contractOfA.uuid))],
    ['PUT', (api: Api) => api.put(contractPath(codeOfA, contractOfA.uuid), contractInput(termsOfA.uuid))],
    ['PATCH', (api: Api) => api.patch(contractPath(codeOfA, contractOfA.uuid), { commitment_length: 3 })],
    ['DELETE', (api: Api) => api.delete(contractPath(codeOfA, contractOfA.uuid))],
    ['GET tiers', (api: Api) => api.get(tiersPath(codeOfA, contractOfA.uuid))],
    ['POST tier', (api: Api) => api.post(tiersPath(codeOfA, contractOfA.uuid), tierInput())],
    ['GET tier', (api: Api) => api.get(tierPath(codeOfA, contractOfA.uuid, tierOfA.id))],
    ['PUT tier', (api: Api) => api.put(tierPath(codeOfA, contractOfA.uuid, tierOfA.id), tierInput())],
    ['PATCH tier', (api: Api) => api.patch(tierPath(codeOfA, contractOfA.uuid, tierOfA.id), { discount: '1' })],
    ['DELETE tier', (api: Api) => api.delete(tierPath(codeOfA, contractOfA.uuid, tierOfA.id))],
  ])('%s under A’s account answers 404 and changes nothing', async (_label, call) => {
    const response = await call(b.api);

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
    expect(await snapshotOfA()).toEqual(before);
  });

  it('B’s account with A’s code does not reach A’s contract', async () => {
    await createAccount(b.api, codeOfA);

    const response = await b.api.get(contractPath(codeOfA, contractOfA.uuid));
    const list = await b.api.get(contractsPath(codeOfA));

    expectStatus(response, 404);
    expect(list.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('POST naming A’s plan terms on B’s account is a field error on plan_terms', async () => {
    const account = await createAccount(b.api);

    const response = await b.api.post(contractsPath(account.code), contractInput(termsOfA.uuid));

    expectStatus(response, 400);
    expect(response.body).toEqual({ plan_terms: [`Invalid pk "${termsOfA.uuid}" - object does not exist.`] });
    expect(await snapshotOfA()).toEqual(before);
  });
});

describe('contract events and audit', () => {
  it('publishes contract.created, .updated (also for tier changes) and .deleted with the state', async () => {
    const { api, organizationId, apiUserId } = await newOrganization(platform());
    const { account, terms, code } = await contractFixture(api);
    // The audit log is read in time order: each step one second later.
    const tick = () => platform().clock.advanceMs(1_000);
    const contract = await createContract(api, code, terms.uuid, { commitment_length: 12 });
    await tick();
    const tier = await createTier(api, code, contract.uuid, { maximum_quantity: 9 });
    await tick();
    expectStatus(await api.patch(tierPath(code, contract.uuid, tier.id), { discount: '15' }), 200);
    await tick();
    expectStatus(await api.delete(tierPath(code, contract.uuid, tier.id)), 204);
    await tick();
    expectStatus(
      await api.patch(
        contractPath(code, contract.uuid),
        { end_date: null },
        { headers: { 'X-Request-ID': 'req-contract-1' } },
      ),
      200,
    );
    await tick();
    expectStatus(await api.post(tiersPath(code, contract.uuid), tierInput({ maximum_quantity: 1 })), 400);
    expectStatus(await api.delete(contractPath(code, contract.uuid)), 204);

    const events = (await platform().catalogEvents()).filter(
      (event) => event.organization_id === organizationId && event.aggregate_type === 'contract',
    );

    expect(events.map((event) => [event.event_type, event.aggregate_id])).toEqual([
      ['contract.created', contract.uuid],
      ['contract.updated', contract.uuid],
      ['contract.updated', contract.uuid],
      ['contract.updated', contract.uuid],
      ['contract.updated', contract.uuid],
      ['contract.deleted', contract.uuid],
    ]);
    expect(events[0]!.contract).toEqual({
      uuid: contract.uuid,
      account: account.uuid,
      plan_terms: terms.uuid,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      commitment_length: 12,
      exclusive_tiers: true,
      tiers: [],
    });
    expect(events[1]!.contract.tiers).toEqual([
      {
        id: tier.id,
        minimum_quantity: 5,
        maximum_quantity: 9,
        discount: '10.00',
        discount_type: 'percentage',
      },
    ]);
    expect(events[2]!.contract.tiers[0].discount).toBe('15.00');
    expect(events[3]!.contract.tiers).toEqual([]);
    expect(events[4]!.request_id).toBe('req-contract-1');
    expect(events[4]!.contract.end_date).toBeUndefined();
    expect(events[5]!.contract.uuid).toBe(contract.uuid);

    const audit = (await platform().subscriptionsAuditLog(organizationId)).filter(
      (row) => row.object_type === 'contract' || row.object_type === 'contract_tier',
    );
    expect(audit.map((row) => [row.action, row.object_id])).toEqual([
      ['contract.create', contract.uuid],
      ['contract_tier.create', tier.id],
      ['contract_tier.update', tier.id],
      ['contract_tier.delete', tier.id],
      ['contract.update', contract.uuid],
      ['contract.delete', contract.uuid],
    ]);
    expect(audit.every((row) => row.api_user_id === apiUserId && row.organization_id === organizationId)).toBe(true);
  });
});
