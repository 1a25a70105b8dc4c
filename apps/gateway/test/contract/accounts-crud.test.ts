/**
 * Account create / read / update / delete on /api/v1/accounts/ and /api/v1/accounts/{code}/:
 * status codes, the full account body with defaults and response-only fields, the Fields header.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  accountInput,
  accountPath,
  createAccount,
  expectedAccount,
  expectStatus,
  NOT_FOUND,
  newOrganization,
  REQUIRED,
  SCHEMA_PATTERN,
  uniqueCode,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

const FULL_INPUT = {
  company_name: 'Acme A/S',
  first_name: 'Jane',
  middle_name: 'Q',
  last_name: 'Doe',
  title: 'ms',
  gender: 'female',
  erp_id: 'ERP-0001',
  partner: 42,
  ean_invoicing: true,
  ean_number: '5790000000001',
  einvoicing_intermediator: 'OPERATOR-1',
  invoice_note: 'Deliver to gate 3',
  language: 'da',
  legal_vat_number: 'DK12345678',
  billing_same_as_legal: false,
  billing_address: 'Banegårdspladsen 2',
  billing_zipcode: '8000',
  billing_city: 'Aarhus C',
  billing_country: 'DK',
  update_from_registers: true,
  default_payment_terms: 30,
  default_collection_method: 'invoice',
  is_getting_reminders: false,
  reseller_billing_frequency: 'end_of_month',
  reseller_billing_grouping: 'currency_resold_account',
  type: 'company',
  custom_fields: { cost_center: 'CC-7', tags: ['a', 'b'], nested: { level: 2 } },
};

describe('POST /api/v1/accounts/', () => {
  it('creates an account from the required fields: 201 with the full account and its defaults', async () => {
    const { api } = await newOrganization(platform());
    platform().clock.set('2026-02-10T08:30:00Z');
    const input = accountInput('minimal-1');

    const response = await api.post(ACCOUNTS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedAccount(input));
    expect(new Date(response.body.created_date).toISOString()).toBe('2026-02-10T08:30:00.000Z');
    expect(new Date(response.body.last_modified_date).toISOString()).toBe('2026-02-10T08:30:00.000Z');
  });

  it('echoes every writable field sent on create', async () => {
    const { api } = await newOrganization(platform());
    const input = accountInput('full-1', FULL_INPUT);

    const response = await api.post(ACCOUNTS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedAccount(input, { display_name: 'Acme A/S', eu_vat_status: 'unverified' }));
  });

  it('accepts the boundary values of code length and default_payment_terms', async () => {
    const { api } = await newOrganization(platform());
    const code = 'c'.repeat(128);
    const input = accountInput(code, { default_payment_terms: -2147483648 });

    const response = await api.post(ACCOUNTS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedAccount(input));
    const other = await api.post(ACCOUNTS, accountInput('max-terms', { default_payment_terms: 2147483647 }));
    expectStatus(other, 201);
    expect(other.body.default_payment_terms).toBe(2147483647);
  });

  it('refuses a duplicate code in the same organization', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'dup-1');

    const response = await api.post(ACCOUNTS, accountInput('dup-1', { company_name: 'Second' }));

    expectStatus(response, 400);
    expect(response.body).toEqual({ code: ['account with this code already exists.'] });
  });

  it('ignores read-only and unknown fields sent on create', async () => {
    const { api } = await newOrganization(platform());
    const input = accountInput('readonly-1');

    const response = await api.post(ACCOUNTS, {
      ...input,
      uuid: '00000000-0000-4000-8000-000000000000',
      display_name: 'Not my name',
      is_archived: true,
      eu_vat_status: 'valid',
      created_date: '2001-01-01T00:00:00Z',
      not_a_field: 'x',
    });

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedAccount(input));
    expect(response.body.uuid).not.toBe('00000000-0000-4000-8000-000000000000');
  });

  it('accepts einvoicing_identifier_schema GLN for a Danish account of a Danish organization', async () => {
    const { api } = await newOrganization(platform(), { country: 'DK' });
    const input = accountInput('gln-1', { ean_invoicing: true, einvoicing_identifier_schema: 'GLN' });

    const response = await api.post(ACCOUNTS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedAccount(input));
  });
});

describe('display_name and eu_vat_status', () => {
  it.each([
    [{ company_name: 'Widgets ApS', first_name: 'Jane', last_name: 'Doe' }, 'Widgets ApS'],
    [{ first_name: 'Jane', middle_name: 'Quinn', last_name: 'Doe' }, 'Jane Quinn Doe'],
    [{ first_name: 'Jane', middle_name: '', last_name: 'Doe' }, 'Jane Doe'],
    [{ first_name: 'Jane' }, 'Jane'],
    [{ last_name: 'Doe' }, 'Doe'],
    [{}, 'CODE-ONLY'],
  ])('display_name of %j is %s', async (fields, displayName) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'CODE-ONLY', fields);
    expect(account.display_name).toBe(displayName);
  });

  it.each([
    ['DK', 'DK12345678', 'unverified'],
    ['DE', 'DE123456789', 'unverified'],
    ['DK', '', 'not_applicable'],
    ['US', '12-3456789', 'not_applicable'],
    ['NO', 'NO123456789MVA', 'not_applicable'],
  ])('eu_vat_status for legal_country %s with VAT number %j is %s', async (country, vat, status) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, uniqueCode(), { legal_country: country, legal_vat_number: vat });
    expect(account.eu_vat_status).toBe(status);
  });
});

describe('GET /api/v1/accounts/{code}/', () => {
  it('returns the account as created', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'read-1', FULL_INPUT);

    const response = await api.get(accountPath('read-1'));

    expectStatus(response, 200);
    expect(response.body).toEqual(created);
  });

  it('answers 404 for an unknown code', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(accountPath('no-such-account'));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });

  it('returns only the fields named in the Fields header, plus model and schema', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'fields-1', { company_name: 'Fields Co' });

    const response = await api.get(accountPath('fields-1'), { headers: { Fields: 'code,company_name' } });

    expectStatus(response, 200);
    expect(response.body).toEqual({
      code: 'fields-1',
      company_name: 'Fields Co',
      model: 'account',
      schema: expect.stringMatching(SCHEMA_PATTERN),
    });
  });

  it('serves codes that need URL encoding', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'kunde 7 æøå');

    const response = await api.get(accountPath('kunde 7 æøå'));

    expectStatus(response, 200);
    expect(response.body).toEqual(created);
  });
});

describe('PUT /api/v1/accounts/{code}/', () => {
  it('replaces the account and returns the full account', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'put-1', { company_name: 'Before' });
    const body = accountInput('put-1', {
      company_name: 'After',
      legal_address: 'Nørrebrogade 10',
      legal_zipcode: '2200',
      legal_city: 'København N',
      legal_country: 'SE',
      language: 'se',
    });

    const response = await api.put(accountPath('put-1'), body);

    expectStatus(response, 200);
    expect(response.body).toEqual(
      expectedAccount(body, { uuid: created.uuid, created_date: created.created_date, display_name: 'After' }),
    );
    const read = await api.get(accountPath('put-1'));
    expect(read.body).toEqual(response.body);
  });

  it('requires the fields required on create', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'put-2');

    const response = await api.put(accountPath('put-2'), { company_name: 'Only this' });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      code: [REQUIRED],
      legal_address: [REQUIRED],
      legal_zipcode: [REQUIRED],
      legal_city: [REQUIRED],
      legal_country: [REQUIRED],
    });
    const read = await api.get(accountPath('put-2'));
    expect(read.body).toEqual(created);
  });

  it('answers 404 for an unknown code', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.put(accountPath('ghost'), accountInput('ghost'));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('PATCH /api/v1/accounts/{code}/', () => {
  it('changes only the fields sent and returns the full account', async () => {
    const { api } = await newOrganization(platform());
    platform().clock.set('2026-04-01T09:00:00Z');
    const created = await createAccount(api, 'patch-1', FULL_INPUT);
    platform().clock.advanceSeconds(90);

    const response = await api.patch(accountPath('patch-1'), { company_name: 'Renamed ApS', invoice_note: null });

    expectStatus(response, 200);
    expect(response.body).toEqual({
      ...created,
      company_name: 'Renamed ApS',
      display_name: 'Renamed ApS',
      invoice_note: null,
      last_modified_date: expect.any(String),
    });
    expect(new Date(response.body.created_date).toISOString()).toBe('2026-04-01T09:00:00.000Z');
    expect(new Date(response.body.last_modified_date).toISOString()).toBe('2026-04-01T09:01:30.000Z');
    const read = await api.get(accountPath('patch-1'));
    expect(read.body).toEqual(response.body);
  });

  it('sets nullable fields back to null and recomputes display_name', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'patch-2', { company_name: 'Gone Soon', first_name: 'Ada', last_name: 'Lovelace' });

    const response = await api.patch(accountPath('patch-2'), { company_name: null });

    expectStatus(response, 200);
    expect(response.body.company_name).toBeNull();
    expect(response.body.display_name).toBe('Ada Lovelace');
  });

  it('changes the code: the new code answers, the old one is 404', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'old-code');

    const response = await api.patch(accountPath('old-code'), { code: 'new-code' });

    expectStatus(response, 200);
    expect(response.body).toEqual({
      ...created,
      code: 'new-code',
      display_name: 'new-code',
      last_modified_date: expect.any(String),
    });
    const moved = await api.get(accountPath('new-code'));
    expectStatus(moved, 200);
    expect(moved.body.uuid).toBe(created.uuid);
    const old = await api.get(accountPath('old-code'));
    expectStatus(old, 404);
    expect(old.body).toEqual(NOT_FOUND);
  });

  it('refuses a code change to a code already in use', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'taken');
    const other = await createAccount(api, 'mine');

    const response = await api.patch(accountPath('mine'), { code: 'taken' });

    expectStatus(response, 400);
    expect(response.body).toEqual({ code: ['account with this code already exists.'] });
    expect((await api.get(accountPath('mine'))).body).toEqual(other);
  });

  it('leaves the account unchanged when the update is invalid', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'patch-invalid');

    const response = await api.patch(accountPath('patch-invalid'), { company_name: 'Valid', legal_country: 'XX' });

    expectStatus(response, 400);
    expect(response.body).toEqual({ legal_country: ['"XX" is not a valid choice.'] });
    expect((await api.get(accountPath('patch-invalid'))).body).toEqual(created);
  });

  it('answers 404 for an unknown code', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.patch(accountPath('ghost'), { company_name: 'x' });

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /api/v1/accounts/{code}/', () => {
  it('answers 204 with an empty body, after which the account is 404', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'delete-1');

    const response = await api.delete(accountPath('delete-1'));

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const read = await api.get(accountPath('delete-1'));
    expectStatus(read, 404);
    expect(read.body).toEqual(NOT_FOUND);
    const again = await api.delete(accountPath('delete-1'));
    expectStatus(again, 404);
    expect(again.body).toEqual(NOT_FOUND);
  });

  it('removes the account from the list', async () => {
    const { api } = await newOrganization(platform());
    const kept = await createAccount(api, 'kept');
    await createAccount(api, 'deleted');

    expect((await api.delete(accountPath('deleted'))).status).toBe(204);

    const list = await api.get(ACCOUNTS);
    expectStatus(list, 200);
    expect(list.body).toEqual({ count: 1, next: null, previous: null, results: [kept] });
  });
});

describe('resellers', () => {
  it('reseller_code names the reseller: reseller is its uuid and reseller_code is echoed', async () => {
    const { api } = await newOrganization(platform());
    const reseller = await createAccount(api, 'reseller-1', { company_name: 'Reseller A/S' });
    const input = accountInput('resold-1', { reseller_code: 'reseller-1' });

    const response = await api.post(ACCOUNTS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedAccount(input, { reseller: reseller.uuid, reseller_code: 'reseller-1' }));
    expect((await api.get(accountPath('resold-1'))).body).toEqual(response.body);
  });

  it('reseller can be set by uuid', async () => {
    const { api } = await newOrganization(platform());
    const reseller = await createAccount(api, 'reseller-2');

    const response = await api.post(ACCOUNTS, accountInput('resold-2', { reseller: reseller.uuid }));

    expectStatus(response, 201);
    expect(response.body.reseller).toBe(reseller.uuid);
  });

  it('refuses an unknown reseller_code', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(ACCOUNTS, accountInput('resold-3', { reseller_code: 'nobody' }));

    expectStatus(response, 400);
    expect(response.body).toEqual({ reseller_code: [expect.any(String)] });
    expectStatus(await api.get(accountPath('resold-3')), 404);
  });

  it('sets a reseller by PATCH', async () => {
    const { api } = await newOrganization(platform());
    const reseller = await createAccount(api, 'reseller-4');
    await createAccount(api, 'resold-4');

    const response = await api.patch(accountPath('resold-4'), { reseller_code: 'reseller-4' });

    expectStatus(response, 200);
    expect(response.body.reseller).toBe(reseller.uuid);
    expect(response.body.reseller_code).toBe('reseller-4');
  });
});
