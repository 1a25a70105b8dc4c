/**
 * Contracts (gaps.md §5): /api/v1/accounts/{code}/contracts/ GET list (envelope), POST;
 * /{uuid}/ GET, PUT, PATCH, DELETE. plan_terms must name the organization's terms; end_date
 * (null: no end) is not before start_date; commitment_length defaults to 0, exclusive_tiers to true.
 */
import { describe, expect, it } from 'vitest';
import {
  accountPath,
  contractFixture,
  contractInput,
  contractPath,
  contractsPath,
  createContract,
  createPlanTerms,
  createTier,
  expectedContract,
  expectedTier,
  expectStatus,
  NOT_FOUND,
  newOrganization,
  planTermsPath,
  REQUIRED,
  tierInput,
  tiersPath,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();
const tick = () => platform().clock.advanceMs(1_000);
const NO_TERMS = (uuid: string) => ({ plan_terms: [`Invalid pk "${uuid}" - object does not exist.`] });
const END_BEFORE_START = { end_date: ['Ensure this date is on or after start_date.'] };

describe('POST /api/v1/accounts/{code}/contracts/', () => {
  it('creates a contract: 201 with the full contract', async () => {
    const { api } = await newOrganization(platform());
    const { account, terms, code } = await contractFixture(api);
    const input = contractInput(terms.uuid, { commitment_length: 12, exclusive_tiers: false });

    const response = await api.post(contractsPath(code), input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedContract(input, account));
    expect((await api.get(contractPath(code, response.body.uuid))).body).toEqual(response.body);
  });

  it('defaults: no end date, commitment_length 0, exclusive_tiers true', async () => {
    const { api } = await newOrganization(platform());
    const { account, terms, code } = await contractFixture(api);
    const input = { plan_terms: terms.uuid, start_date: '2026-02-01' };

    const response = await api.post(contractsPath(code), input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedContract(input, account));
    expect(response.body).toMatchObject({ end_date: null, commitment_length: 0, exclusive_tiers: true });
  });

  it('takes end_date equal to start_date and an explicit null', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);

    const same = await api.post(contractsPath(code), contractInput(terms.uuid, { end_date: '2026-01-01' }));
    const open = await api.post(contractsPath(code), contractInput(terms.uuid, { end_date: null }));

    expectStatus(same, 201);
    expect(same.body.end_date).toBe('2026-01-01');
    expectStatus(open, 201);
    expect(open.body.end_date).toBeNull();
  });

  it('requires plan_terms and start_date', async () => {
    const { api } = await newOrganization(platform());
    const { code } = await contractFixture(api);

    const response = await api.post(contractsPath(code), {});

    expectStatus(response, 400);
    expect(response.body).toEqual({ plan_terms: [REQUIRED], start_date: [REQUIRED] });
  });

  it.each([
    [
      { start_date: '2026-02-30' },
      { start_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] },
    ],
    [{ end_date: 'tomorrow' }, { end_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] }],
    [{ commitment_length: -1 }, { commitment_length: ['Ensure this value is greater than or equal to 0.'] }],
    [{ commitment_length: 1.5 }, { commitment_length: ['A valid integer is required.'] }],
    [{ exclusive_tiers: 'maybe' }, { exclusive_tiers: ['Must be a valid boolean.'] }],
    [{ plan_terms: 'nope' }, { plan_terms: ['Must be a valid UUID.'] }],
    [{ start_date: null }, { start_date: ['This field may not be null.'] }],
    [{ commitment_length: null }, { commitment_length: ['This field may not be null.'] }],
  ])('refuses %j', async (overrides, errors) => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);

    const response = await api.post(contractsPath(code), contractInput(terms.uuid, overrides));

    expectStatus(response, 400);
    expect(response.body).toEqual(errors);
  });

  it('refuses end_date before start_date: 400 on end_date', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);

    const response = await api.post(contractsPath(code), contractInput(terms.uuid, { end_date: '2025-12-31' }));

    expectStatus(response, 400);
    expect(response.body).toEqual(END_BEFORE_START);
  });

  it('refuses unknown plan terms: 400 on plan_terms', async () => {
    const { api } = await newOrganization(platform());
    const { code } = await contractFixture(api);
    const unknown = '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f';

    const response = await api.post(contractsPath(code), contractInput(unknown));

    expectStatus(response, 400);
    expect(response.body).toEqual(NO_TERMS(unknown));
  });

  it('answers 404 for an unknown account code', async () => {
    const { api } = await newOrganization(platform());
    const { terms } = await contractFixture(api);

    const response = await api.post(contractsPath('no-such-account'), contractInput(terms.uuid));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('GET /api/v1/accounts/{code}/contracts/', () => {
  it('lists the account’s contracts oldest first in the envelope, not other accounts’', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    const other = await contractFixture(api);
    const first = await createContract(api, code, terms.uuid);
    await tick();
    const second = await createContract(api, code, terms.uuid, { start_date: '2025-06-01', end_date: null });
    await createContract(api, other.code, other.terms.uuid);

    const response = await api.get(contractsPath(code));

    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 2, next: null, previous: null, results: [first, second] });
    expect((await api.get(`${contractsPath(code)}?ordering=start_date`)).body.results).toEqual([second, first]);
  });

  it('pages with next links', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    for (let index = 0; index < 3; index++) {
      await createContract(api, code, terms.uuid);
      await tick();
    }

    const response = await api.get(`${contractsPath(code)}?page_size=2`);

    expectStatus(response, 200);
    expect(response.body.count).toBe(3);
    expect(response.body.results).toHaveLength(2);
    expect(response.body.next).toMatch(/\/contracts\/\?page=2&page_size=2$|page_size=2&page=2$/);
  });

  it('answers 404 for an unknown account code', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(contractsPath('no-such-account'));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });

  it('a contract read through another account of the organization is 404', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    const other = await contractFixture(api);
    const contract = await createContract(api, code, terms.uuid);

    const response = await api.get(contractPath(other.code, contract.uuid));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('PUT and PATCH /api/v1/accounts/{code}/contracts/{uuid}/', () => {
  it('PATCH changes only what was sent and returns the contract with its tiers', async () => {
    const { api } = await newOrganization(platform());
    const { account, terms, code } = await contractFixture(api);
    const input = contractInput(terms.uuid, { commitment_length: 6 });
    const contract = await createContract(api, code, terms.uuid, { commitment_length: 6 });
    const tier = await createTier(api, code, contract.uuid);

    const response = await api.patch(contractPath(code, contract.uuid), { end_date: null, exclusive_tiers: false });

    expectStatus(response, 200);
    expect(response.body).toEqual(
      expectedContract(input, account, { uuid: contract.uuid, end_date: null, exclusive_tiers: false, tiers: [tier] }),
    );
    expect((await api.get(contractPath(code, contract.uuid))).body).toEqual(response.body);
  });

  it('PUT needs the required fields and resets the others to their defaults', async () => {
    const { api } = await newOrganization(platform());
    const { account, plan, terms, code } = await contractFixture(api);
    const otherTerms = await createPlanTerms(api, plan.uuid);
    const contract = await createContract(api, code, terms.uuid, { commitment_length: 6, exclusive_tiers: false });

    const missing = await api.put(contractPath(code, contract.uuid), { end_date: null });
    expectStatus(missing, 400);
    expect(missing.body).toEqual({ plan_terms: [REQUIRED], start_date: [REQUIRED] });

    const input = { plan_terms: otherTerms.uuid, start_date: '2026-03-01' };
    const response = await api.put(contractPath(code, contract.uuid), input);

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedContract(input, account, { uuid: contract.uuid }));
  });

  it('PATCH checks the dates against the stored ones: 400 on end_date', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    const contract = await createContract(api, code, terms.uuid);

    const response = await api.patch(contractPath(code, contract.uuid), { start_date: '2027-01-01' });

    expectStatus(response, 400);
    expect(response.body).toEqual(END_BEFORE_START);
    expect((await api.get(contractPath(code, contract.uuid))).body).toEqual(contract);
  });

  it('PATCH to terms of no plan of the organization: 400 on plan_terms', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    const contract = await createContract(api, code, terms.uuid);
    const unknown = '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f';

    const response = await api.patch(contractPath(code, contract.uuid), { plan_terms: unknown });

    expectStatus(response, 400);
    expect(response.body).toEqual(NO_TERMS(unknown));
  });

  it('unknown contract: 404', async () => {
    const { api } = await newOrganization(platform());
    const { code } = await contractFixture(api);

    const response = await api.patch(contractPath(code, '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f'), {});

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /api/v1/accounts/{code}/contracts/{uuid}/', () => {
  it('deletes the contract with its tiers: 204, then 404', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    const contract = await createContract(api, code, terms.uuid);
    const tier = await createTier(api, code, contract.uuid);

    const response = await api.delete(contractPath(code, contract.uuid));

    expectStatus(response, 204);
    expect(response.text).toBe('');
    expect((await api.get(contractPath(code, contract.uuid))).status).toBe(404);
    expect((await api.get(`${tiersPath(code, contract.uuid)}${tier.id}/`)).status).toBe(404);
    expect((await api.get(contractsPath(code))).body.count).toBe(0);
  });

  it('plan terms a contract names cannot be deleted', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    await createContract(api, code, terms.uuid);

    const response = await api.delete(planTermsPath(terms.uuid));

    expectStatus(response, 400);
    expect(response.body).toEqual({
      detail: 'Plan terms used by a contract cannot be deleted; set active to false instead.',
    });
  });
});

describe('the account code in the path', () => {
  it('shows the code the account has now after the account’s code changed', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    const contract = await createContract(api, code, terms.uuid);
    expectStatus(await api.patch(accountPath(code), { code: `${code}-new` }), 200);

    const response = await api.get(contractPath(`${code}-new`, contract.uuid));

    expectStatus(response, 200);
    expect(response.body).toEqual({ ...contract, account_code: `${code}-new` });
    expect((await api.get(contractPath(code, contract.uuid))).status).toBe(404);
  });

  it('tiers are listed inside the contract too', async () => {
    const { api } = await newOrganization(platform());
    const { terms, code } = await contractFixture(api);
    const contract = await createContract(api, code, terms.uuid);
    const input = tierInput({ maximum_quantity: 9 });
    const tier = await createTier(api, code, contract.uuid, { maximum_quantity: 9 });

    expect(tier).toEqual(expectedTier(input));
    expect((await api.get(contractPath(code, contract.uuid))).body.tiers).toEqual([tier]);
  });
});
