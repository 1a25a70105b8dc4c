/**
 * Payment gateway accounts (spec + gaps §3): GET and POST /api/v1/accounts/{code}/payment-gateways/
 * and the account's payment_gateway_account_set.
 */
import { describe, expect, it } from 'vitest';
import {
  accountPath,
  createAccount,
  expectedGatewayAccount,
  expectStatus,
  gatewaysPath,
  NOT_FOUND,
  newOrganization,
  SCHEMA_PATTERN,
  sortBy,
  UUID_PATTERN,
  usePlatform,
  withoutUuid,
} from './helpers.js';

const platform = usePlatform();

const GATEWAYS = ['cardgw_a', 'cardgw_a_new', 'noop', 'cardgw_b', 'cardgw_c', 'cardgw_c_easy'];

describe('GET /api/v1/accounts/{code}/payment-gateways/', () => {
  it('is an empty unpaginated list for a new account', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-empty');

    const response = await api.get(gatewaysPath('pg-empty'));

    expectStatus(response, 200);
    expect(response.body).toEqual([]);
  });

  it('answers 404 for an unknown account', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(gatewaysPath('ghost'));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('POST /api/v1/accounts/{code}/payment-gateways/', () => {
  it('sets the list and returns it (200)', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-set');
    const body = [
      { payment_gateway: 'cardgw_a', payment_gateway_account_id: 'cus_123' },
      { payment_gateway: 'noop', payment_gateway_account_id: 'n-1' },
    ];

    const response = await api.post(gatewaysPath('pg-set'), body);

    expectStatus(response, 200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(withoutUuid(response.body)).toEqual([
      expectedGatewayAccount('cardgw_a', 'cus_123'),
      expectedGatewayAccount('noop', 'n-1'),
    ]);
    const read = await api.get(gatewaysPath('pg-set'));
    expectStatus(read, 200);
    expect(read.body).toEqual(response.body);
  });

  it('accepts every gateway of the spec and ids of 256 characters', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-all');
    const body = GATEWAYS.map((gateway, i) => ({
      payment_gateway: gateway,
      payment_gateway_account_id: i === 0 ? 'x'.repeat(256) : `${gateway}-id`,
    }));

    const response = await api.post(gatewaysPath('pg-all'), body);

    expectStatus(response, 200);
    // The contract fixes no order of the set.
    expect(sortBy(withoutUuid(response.body), 'payment_gateway')).toEqual(
      sortBy(
        body.map((item) => expectedGatewayAccount(item.payment_gateway, item.payment_gateway_account_id)),
        'payment_gateway',
      ),
    );
  });

  it('replaces the previous set', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-replace');
    expectStatus(
      await api.post(gatewaysPath('pg-replace'), [
        { payment_gateway: 'cardgw_a', payment_gateway_account_id: 'old-1' },
        { payment_gateway: 'cardgw_b', payment_gateway_account_id: 'old-2' },
      ]),
      200,
    );

    const response = await api.post(gatewaysPath('pg-replace'), [
      { payment_gateway: 'cardgw_c', payment_gateway_account_id: 'new-1' },
    ]);

    expectStatus(response, 200);
    expect(withoutUuid(response.body)).toEqual([expectedGatewayAccount('cardgw_c', 'new-1')]);
    expect(withoutUuid((await api.get(gatewaysPath('pg-replace'))).body)).toEqual([
      expectedGatewayAccount('cardgw_c', 'new-1'),
    ]);
  });

  it('an empty list clears the set', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-clear');
    await api.post(gatewaysPath('pg-clear'), [{ payment_gateway: 'noop', payment_gateway_account_id: 'n' }]);

    const response = await api.post(gatewaysPath('pg-clear'), []);

    expectStatus(response, 200);
    expect(response.body).toEqual([]);
    expect((await api.get(gatewaysPath('pg-clear'))).body).toEqual([]);
    expect((await api.get(accountPath('pg-clear'))).body.payment_gateway_account_set).toEqual([]);
  });

  it('refuses an invalid gateway with list-shaped errors and keeps the old set', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-invalid');
    const before = await api.post(gatewaysPath('pg-invalid'), [
      { payment_gateway: 'noop', payment_gateway_account_id: 'keep-me' },
    ]);
    expectStatus(before, 200);

    const response = await api.post(gatewaysPath('pg-invalid'), [
      { payment_gateway: 'cardgw_a', payment_gateway_account_id: 'fine' },
      { payment_gateway: 'bogus', payment_gateway_account_id: 'x' },
    ]);

    expectStatus(response, 400);
    expect(response.body).toEqual([{}, { payment_gateway: ['"bogus" is not a valid choice.'] }]);
    expect((await api.get(gatewaysPath('pg-invalid'))).body).toEqual(before.body);
  });

  it('refuses a payment_gateway_account_id over 256 characters', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-long');

    const response = await api.post(gatewaysPath('pg-long'), [
      { payment_gateway: 'noop', payment_gateway_account_id: 'x'.repeat(257) },
    ]);

    expectStatus(response, 400);
    expect(response.body).toEqual([
      { payment_gateway_account_id: ['Ensure this field has no more than 256 characters.'] },
    ]);
    expect((await api.get(gatewaysPath('pg-long'))).body).toEqual([]);
  });

  it('names missing and blank fields per item', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-missing');

    const response = await api.post(gatewaysPath('pg-missing'), [
      { payment_gateway: 'noop' },
      { payment_gateway: 'noop', payment_gateway_account_id: '' },
    ]);

    expectStatus(response, 400);
    expect(response.body).toEqual([
      { payment_gateway_account_id: ['This field is required.'] },
      { payment_gateway_account_id: [expect.any(String)] },
    ]);
  });

  it('refuses a body that is not a list', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-object');

    const response = await api.post(gatewaysPath('pg-object'), {
      payment_gateway: 'noop',
      payment_gateway_account_id: 'x',
    });

    expectStatus(response, 400);
    expect((await api.get(gatewaysPath('pg-object'))).body).toEqual([]);
  });

  it('answers 404 for an unknown account', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(gatewaysPath('ghost'), [
      { payment_gateway: 'noop', payment_gateway_account_id: 'x' },
    ]);

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe("the account's payment_gateway_account_set", () => {
  it('reflects the set with uuid, model and schema', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'pg-account');
    await api.post(gatewaysPath('pg-account'), [
      { payment_gateway: 'cardgw_b', payment_gateway_account_id: 'sub_1' },
      { payment_gateway: 'cardgw_c_easy', payment_gateway_account_id: 'easy_1' },
    ]);

    const read = await api.get(accountPath('pg-account'));

    expectStatus(read, 200);
    expect(read.body.payment_gateway_account_set).toEqual([
      {
        uuid: expect.stringMatching(UUID_PATTERN),
        payment_gateway: 'cardgw_b',
        payment_gateway_account_id: 'sub_1',
        model: 'payment_gateway_account',
        schema: expect.stringMatching(SCHEMA_PATTERN),
      },
      {
        uuid: expect.stringMatching(UUID_PATTERN),
        payment_gateway: 'cardgw_c_easy',
        payment_gateway_account_id: 'easy_1',
        model: 'payment_gateway_account',
        schema: expect.stringMatching(SCHEMA_PATTERN),
      },
    ]);
  });
});
