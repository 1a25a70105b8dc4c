/**
 * Contract tiers (gaps.md §5): .../contracts/{uuid}/tiers/ GET list (envelope), POST;
 * /{id}/ GET, PUT, PATCH, DELETE. `id` is a uuid. minimum_quantity >= 1; maximum_quantity null
 * (no bound) or >= minimum_quantity; discount a decimal >= 0, at most 100 when a percentage;
 * discount_type percentage or fixed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestOrganization } from '../support/platform.js';
import {
  contractFixture,
  contractPath,
  createContract,
  createTier,
  expectedTier,
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  REQUIRED,
  tierInput,
  tierPath,
  tiersPath,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();
const tick = () => platform().clock.advanceMs(1_000);
const MAX_BELOW_MIN = { maximum_quantity: ['Ensure this value is greater than or equal to minimum_quantity.'] };
const OVER_100 = { discount: ['Ensure this value is less than or equal to 100.'] };

describe('contract tiers', () => {
  let org: TestOrganization;
  let code: string;
  let contract: Json & { uuid: string };

  beforeAll(async () => {
    org = await newOrganization(platform());
    const fixture = await contractFixture(org.api);
    code = fixture.code;
    contract = await createContract(org.api, code, fixture.terms.uuid);
  });

  const freshContract = async () => {
    const fixture = await contractFixture(org.api);
    return { code: fixture.code, contract: await createContract(org.api, fixture.code, fixture.terms.uuid) };
  };

  it('POST creates a tier: 201 with the full tier; the contract carries it', async () => {
    const input = tierInput({ minimum_quantity: 10, maximum_quantity: 20, discount: '12.5', discount_type: 'fixed' });

    const response = await org.api.post(tiersPath(code, contract.uuid), input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedTier(input, { discount: '12.50' }));
    expect((await org.api.get(tierPath(code, contract.uuid, response.body.id))).body).toEqual(response.body);
    expect((await org.api.get(contractPath(code, contract.uuid))).body.tiers).toContainEqual(response.body);
  });

  it.each([
    ['100', '100.00'],
    ['0', '0.00'],
    ['9.995', '9.995'],
    [7, '7.00'],
  ])('stores discount %j and shows it as %j', async (discount, shown) => {
    const response = await org.api.post(tiersPath(code, contract.uuid), tierInput({ discount }));

    expectStatus(response, 201);
    expect(response.body.discount).toBe(shown);
  });

  it('takes maximum_quantity equal to minimum_quantity and fixed discounts over 100', async () => {
    const equal = await org.api.post(tiersPath(code, contract.uuid), tierInput({ maximum_quantity: 5 }));
    const fixed = await org.api.post(
      tiersPath(code, contract.uuid),
      tierInput({ discount: '250.00', discount_type: 'fixed' }),
    );

    expectStatus(equal, 201);
    expect(equal.body.maximum_quantity).toBe(5);
    expectStatus(fixed, 201);
    expect(fixed.body.discount).toBe('250.00');
  });

  it('requires minimum_quantity, discount and discount_type', async () => {
    const response = await org.api.post(tiersPath(code, contract.uuid), {});

    expectStatus(response, 400);
    expect(response.body).toEqual({ minimum_quantity: [REQUIRED], discount: [REQUIRED], discount_type: [REQUIRED] });
  });

  it.each([
    [{ minimum_quantity: 0 }, { minimum_quantity: ['Ensure this value is greater than or equal to 1.'] }],
    [{ minimum_quantity: 'many' }, { minimum_quantity: ['A valid integer is required.'] }],
    [{ maximum_quantity: 0 }, { maximum_quantity: ['Ensure this value is greater than or equal to 1.'] }],
    [{ discount: '-1' }, { discount: ['Ensure this value is greater than or equal to 0.'] }],
    [{ discount: '1.1234567' }, { discount: ['Ensure that there are no more than 6 decimal places.'] }],
    [{ discount: 'ten' }, { discount: ['A valid number is required.'] }],
    [{ discount_type: 'amount' }, { discount_type: ['"amount" is not a valid choice.'] }],
    [{ discount: null }, { discount: ['This field may not be null.'] }],
    [{ maximum_quantity: 4 }, MAX_BELOW_MIN],
    [{ discount: '100.01' }, OVER_100],
  ])('refuses %j', async (overrides, errors) => {
    const response = await org.api.post(tiersPath(code, contract.uuid), tierInput(overrides));

    expectStatus(response, 400);
    expect(response.body).toEqual(errors);
  });

  it('GET lists the contract’s tiers oldest first in the envelope; ordering by minimum_quantity', async () => {
    const { code: c, contract: k } = await freshContract();
    const high = await createTier(org.api, c, k.uuid, { minimum_quantity: 20 });
    await tick();
    const low = await createTier(org.api, c, k.uuid, { minimum_quantity: 2 });

    const response = await org.api.get(tiersPath(c, k.uuid));

    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 2, next: null, previous: null, results: [high, low] });
    expect((await org.api.get(`${tiersPath(c, k.uuid)}?ordering=minimum_quantity`)).body.results).toEqual([low, high]);
    expect((await org.api.get(contractPath(c, k.uuid))).body.tiers).toEqual([high, low]);
  });

  it('PATCH changes only what was sent and checks the merged tier', async () => {
    const { code: c, contract: k } = await freshContract();
    const tier = await createTier(org.api, c, k.uuid, { discount: '150', discount_type: 'fixed' });

    const refused = await org.api.patch(tierPath(c, k.uuid, tier.id), { discount_type: 'percentage' });
    expectStatus(refused, 400);
    expect(refused.body).toEqual(OVER_100);
    const below = await org.api.patch(tierPath(c, k.uuid, tier.id), { maximum_quantity: 4 });
    expectStatus(below, 400);
    expect(below.body).toEqual(MAX_BELOW_MIN);

    const response = await org.api.patch(tierPath(c, k.uuid, tier.id), { maximum_quantity: 50 });

    expectStatus(response, 200);
    expect(response.body).toEqual({ ...tier, maximum_quantity: 50 });
    expect((await org.api.get(contractPath(c, k.uuid))).body.tiers).toEqual([response.body]);
  });

  it('PUT needs the required fields and resets maximum_quantity to null', async () => {
    const { code: c, contract: k } = await freshContract();
    const tier = await createTier(org.api, c, k.uuid, { maximum_quantity: 9 });

    const missing = await org.api.put(tierPath(c, k.uuid, tier.id), { discount: '5' });
    expectStatus(missing, 400);
    expect(missing.body).toEqual({ minimum_quantity: [REQUIRED], discount_type: [REQUIRED] });

    const input = { minimum_quantity: 3, discount: '2.5', discount_type: 'fixed' };
    const response = await org.api.put(tierPath(c, k.uuid, tier.id), input);

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedTier(input, { id: tier.id, discount: '2.50' }));
  });

  it('DELETE removes the tier: 204, then 404', async () => {
    const { code: c, contract: k } = await freshContract();
    const tier = await createTier(org.api, c, k.uuid);

    const response = await org.api.delete(tierPath(c, k.uuid, tier.id));

    expectStatus(response, 204);
    expect((await org.api.get(tierPath(c, k.uuid, tier.id))).body).toEqual(NOT_FOUND);
    expect((await org.api.get(contractPath(c, k.uuid))).body.tiers).toEqual([]);
  });

  it('a tier is found only under its own contract and account: 404 otherwise', async () => {
    const { code: c, contract: k } = await freshContract();
    const tier = await createTier(org.api, c, k.uuid);

    for (const path of [
      tierPath(code, contract.uuid, tier.id),
      tierPath(code, k.uuid, tier.id),
      tierPath(c, k.uuid, '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f'),
      tiersPath(c, '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f'),
    ]) {
      const response = await org.api.get(path);
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    const post = await org.api.post(tiersPath(code, k.uuid), tierInput());
    expectStatus(post, 404);
  });
});
