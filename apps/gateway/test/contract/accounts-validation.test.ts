/**
 * Validation errors of account writes: 400 with DRF-shaped bodies `{"<field>": ["message"]}`.
 * Messages the contract fixes are asserted exactly; for the others the field key is exact and the
 * message is any string.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  accountInput,
  accountPath,
  createAccount,
  expectStatus,
  type Json,
  newOrganization,
  REQUIRED,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

async function expectCreateRejected(body: unknown, errors: Json): Promise<void> {
  const { api } = await newOrganization(platform());
  const response = await api.post(ACCOUNTS, body);
  expectStatus(response, 400);
  expect(response.body).toEqual(errors);
  const list = await api.get(ACCOUNTS);
  expect(list.body.count).toBe(0);
}

describe('required fields', () => {
  it('names every missing required field', async () => {
    await expectCreateRejected(
      {},
      {
        code: [REQUIRED],
        legal_address: [REQUIRED],
        legal_zipcode: [REQUIRED],
        legal_city: [REQUIRED],
        legal_country: [REQUIRED],
      },
    );
  });

  it.each(['code', 'legal_address', 'legal_zipcode', 'legal_city', 'legal_country'])(
    'names a single missing %s',
    async (field) => {
      const body = accountInput('req-1');
      delete body[field];
      await expectCreateRejected(body, { [field]: [REQUIRED] });
    },
  );

  it.each(['code', 'legal_address', 'legal_zipcode', 'legal_city'])('refuses a blank %s', async (field) => {
    await expectCreateRejected(accountInput('blank-1', { [field]: '' }), { [field]: [expect.any(String)] });
  });

  it('reports errors of several fields at once', async () => {
    await expectCreateRejected(
      { code: 'multi-1', legal_address: 'a', legal_zipcode: '1', legal_country: 'XX', language: null },
      {
        legal_city: [REQUIRED],
        legal_country: ['"XX" is not a valid choice.'],
        language: ['This field may not be null.'],
      },
    );
  });
});

describe('choices', () => {
  it.each([
    ['legal_country', 'XX'],
    ['billing_country', 'XX'],
    ['legal_country', 'dk'],
    ['title', 'dr'],
    ['gender', 'unknown'],
    ['language', 'sv'],
    ['default_collection_method', 'cash'],
    ['reseller_billing_frequency', 'hourly'],
    ['reseller_billing_grouping', 'plan'],
    ['type', 'robot'],
  ])('%s=%j is not a valid choice', async (field, value) => {
    await expectCreateRejected(accountInput('choice-1', { [field]: value }), {
      [field]: [`"${value}" is not a valid choice.`],
    });
  });

  it.each([
    ['title', 'mr'],
    ['title', 'mrs'],
    ['gender', 'male'],
    ['gender', 'other'],
    ['language', 'nb'],
    ['language', 'pt'],
    ['default_collection_method', 'payment_card'],
    ['default_collection_method', 'direct_debit'],
    ['reseller_billing_frequency', 'start_and_end_of_month'],
    ['reseller_billing_grouping', 'currency_resold_account_po_number'],
    ['type', 'person'],
    ['legal_country', 'AX'],
    ['billing_country', 'ZW'],
  ])('%s=%j is accepted and echoed', async (field, value) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'choice-ok', { [field]: value });
    expect(account[field]).toBe(value);
  });
});

describe('lengths', () => {
  it.each([
    ['code', 128],
    ['company_name', 256],
    ['first_name', 128],
    ['middle_name', 128],
    ['last_name', 128],
    ['erp_id', 128],
    ['ean_number', 128],
    ['einvoicing_intermediator', 35],
    ['invoice_note', 240],
    ['legal_zipcode', 128],
    ['legal_city', 128],
    ['legal_vat_number', 128],
    ['billing_zipcode', 128],
    ['billing_city', 128],
  ])('%s longer than %i characters is refused', async (field, max) => {
    await expectCreateRejected(accountInput('len-1', { [field]: 'x'.repeat(max + 1) }), {
      [field]: [`Ensure this field has no more than ${max} characters.`],
    });
  });

  it.each([
    ['company_name', 256],
    ['einvoicing_intermediator', 35],
    ['invoice_note', 240],
  ])('%s of exactly %i characters is accepted', async (field, max) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'len-ok', { [field]: 'x'.repeat(max) });
    expect(account[field]).toBe('x'.repeat(max));
  });
});

describe('nulls and types', () => {
  it('language may not be null', async () => {
    await expectCreateRejected(accountInput('null-1', { language: null }), {
      language: ['This field may not be null.'],
    });
  });

  it.each(['code', 'legal_address', 'legal_country', 'ean_invoicing', 'billing_same_as_legal', 'is_getting_reminders'])(
    '%s may not be null',
    async (field) => {
      await expectCreateRejected(accountInput('null-2', { [field]: null }), {
        [field]: ['This field may not be null.'],
      });
    },
  );

  it.each([
    ['default_payment_terms', 2147483648],
    ['default_payment_terms', -2147483649],
    ['default_payment_terms', 'thirty'],
    ['partner', 'abc'],
    ['ean_invoicing', 'sometimes'],
    ['is_getting_reminders', 'maybe'],
    ['reseller', 'not-a-uuid'],
  ])('%s=%j is refused', async (field, value) => {
    await expectCreateRejected(accountInput('type-1', { [field]: value }), { [field]: [expect.any(String)] });
  });

  it('refuses a reseller uuid that names no account', async () => {
    await expectCreateRejected(accountInput('type-2', { reseller: '0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11' }), {
      reseller: [expect.any(String)],
    });
  });

  it('refuses a body that is not a JSON object', async () => {
    await expectCreateRejected([accountInput('array-1')], { non_field_errors: [expect.any(String)] });
  });
});

describe('updates', () => {
  it('PATCH validates the fields it sends', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'upd-1');

    const response = await api.patch(accountPath('upd-1'), {
      code: 'c'.repeat(129),
      language: null,
      title: 'sir',
    });

    expectStatus(response, 400);
    expect(response.body).toEqual({
      code: ['Ensure this field has no more than 128 characters.'],
      language: ['This field may not be null.'],
      title: ['"sir" is not a valid choice.'],
    });
    expect((await api.get(accountPath('upd-1'))).body).toEqual(created);
  });

  it('PUT names each missing required field', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'upd-2');
    const body = accountInput('upd-2');
    delete body.legal_city;

    const response = await api.put(accountPath('upd-2'), body);

    expectStatus(response, 400);
    expect(response.body).toEqual({ legal_city: [REQUIRED] });
    expect((await api.get(accountPath('upd-2'))).body).toEqual(created);
  });

  it('PATCH refuses an unknown reseller_code', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'upd-3');

    const response = await api.patch(accountPath('upd-3'), { reseller_code: 'nobody' });

    expectStatus(response, 400);
    expect(response.body).toEqual({ reseller_code: [expect.any(String)] });
    expect((await api.get(accountPath('upd-3'))).body).toEqual(created);
  });
});
