/**
 * Draft invoice lines (gaps.md §3, api-spec "Draft invoice line"): CRUD on /api/v1/draftinvoicelines/,
 * their constraints, the list and its `account` filter, and the account's `draftinvoiceline_set`.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  ACCOUNTS,
  accountPath,
  createAccount,
  expectStatus,
  ISO_Z_PATTERN,
  type Json,
  NOT_FOUND,
  newOrganization,
  REQUIRED,
  SCHEMA_PATTERN,
  UUID_PATTERN,
  usePlatform,
} from './helpers.js';
import { DRAFT_LINES, draftLinePath } from './invoices-helpers.js';

const platform = usePlatform();
const ONLY_ONE_DISCOUNT =
  'Only one of discount_percentage, discount_fixed_per_quantity and discount_fixed_total may be set.';

const minimal = (account: string): Json => ({
  account,
  description: 'Setup fee',
  vat_type: 'services',
  currency: 'DKK',
});

/** The draft line the API returns for a create of `minimal` plus `fields` on `account`. */
function expectedLine(account: { code: string; uuid: string }, fields: Json = {}): Json {
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    account: account.code,
    account_uuid: account.uuid,
    description: 'Setup fee',
    vat_type: 'services',
    collect_vat: true,
    date_from: null,
    date_to: null,
    price: '0.00',
    quantity: '1.00',
    discount_percentage: null,
    discount_fixed_per_quantity: null,
    discount_fixed_total: null,
    currency: 'DKK',
    include_in_next_renewal_invoice: false,
    revenue_group: null,
    created_date: expect.stringMatching(ISO_Z_PATTERN),
    last_modified_date: expect.stringMatching(ISO_Z_PATTERN),
    reference_person: '',
    account_reference_person: '',
    po_number: '',
    case_number: '',
    invoice_supplement: null,
    custom_fields: {},
    model: 'draft_invoice_line',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...fields,
  };
}

async function create(api: ApiClient, body: Json) {
  const response = await api.post(DRAFT_LINES, body);
  expectStatus(response, 201);
  return response.body as Json & { uuid: string };
}

const FULL: Json = {
  description: 'Onboarding workshop',
  vat_type: 'physical',
  collect_vat: false,
  date_from: '2026-02-01',
  date_to: '2026-02-28',
  price: '1250.5',
  quantity: '2.5',
  discount_fixed_per_quantity: '50',
  currency: 'EUR',
  include_in_next_renewal_invoice: true,
  revenue_group: 'services',
  reference_person: 'Ada',
  account_reference_person: 'Bob',
  po_number: 'PO-7',
  case_number: 'C-9',
  invoice_supplement: 'On site in Aarhus',
  custom_fields: { project: 'X' },
};

describe('create', () => {
  it('takes the required fields and shows the defaults of every other', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);

    const response = await api.post(DRAFT_LINES, minimal(account.code));

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedLine(account, { created_date: '2026-01-15T09:00:00.000Z' }));
    expect(response.body.last_modified_date).toBe('2026-01-15T09:00:00.000Z');
  });

  it('stores every field of the spec, amounts as exact decimals with at least two places', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);

    const line = await create(api, { ...minimal(account.code), ...FULL });

    expect(line).toEqual(
      expectedLine(account, {
        ...FULL,
        price: '1250.50',
        quantity: '2.50',
        discount_fixed_per_quantity: '50.00',
      }),
    );
  });

  it('takes the organization’s base currency when create or PUT leaves currency out (gaps.md §3 requires only account, description, vat_type); PATCH keeps the line’s', async () => {
    const { api } = await newOrganization(platform(), { base_currency: 'EUR' });
    const account = await createAccount(api);
    const { currency: _omitted, ...withoutCurrency } = minimal(account.code);

    const created = await api.post(DRAFT_LINES, withoutCurrency);
    expectStatus(created, 201);
    expect(created.body).toEqual(expectedLine(account, { currency: 'EUR' }));

    const line = await create(api, { ...minimal(account.code), currency: 'SEK', price: '10' });
    const patched = await api.patch(draftLinePath(line.uuid), { price: '12' });
    expectStatus(patched, 200);
    expect(patched.body).toEqual({ ...line, price: '12.00' });
    const put = await api.put(draftLinePath(line.uuid), withoutCurrency);
    expectStatus(put, 200);
    expect(put.body).toEqual({ ...line, currency: 'EUR', price: '0.00' });
  });

  it('refuses missing required fields, an unknown account and values out of their constraints', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);

    const missing = await api.post(DRAFT_LINES, {});
    const unknown = await api.post(DRAFT_LINES, minimal('no-such-account'));
    const bad = await api.post(DRAFT_LINES, {
      ...minimal(account.code),
      vat_type: 'food',
      currency: 'XXX',
      price: '1.1234567',
      quantity: '0',
      date_from: '2026-02-30',
      discount_percentage: '101',
      po_number: 'x'.repeat(129),
    });

    expectStatus(missing, 400);
    expect(missing.body).toEqual({
      account: [REQUIRED],
      description: [REQUIRED],
      vat_type: [REQUIRED],
    });
    expectStatus(unknown, 400);
    expect(unknown.body).toEqual({ account: ['Object with code=no-such-account does not exist.'] });
    expectStatus(bad, 400);
    expect(bad.body).toEqual({
      vat_type: ['"food" is not a valid choice.'],
      currency: ['"XXX" is not a valid choice.'],
      price: ['Ensure that there are no more than 6 decimal places.'],
      date_from: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
      discount_percentage: ['Ensure this value is less than or equal to 100.'],
      po_number: ['Ensure this field has no more than 128 characters.'],
    });
  });

  it('takes one discount at most, date_to not before date_from and a positive quantity', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);

    const twoDiscounts = await api.post(DRAFT_LINES, {
      ...minimal(account.code),
      price: '100',
      discount_percentage: '10',
      discount_fixed_total: '5',
    });
    const dates = await api.post(DRAFT_LINES, {
      ...minimal(account.code),
      date_from: '2026-02-01',
      date_to: '2026-01-31',
    });
    const quantity = await api.post(DRAFT_LINES, { ...minimal(account.code), quantity: '0' });
    const overPrice = await api.post(DRAFT_LINES, {
      ...minimal(account.code),
      price: '10',
      discount_fixed_per_quantity: '11',
    });

    expect(twoDiscounts.body).toEqual({
      discount_percentage: [ONLY_ONE_DISCOUNT],
      discount_fixed_total: [ONLY_ONE_DISCOUNT],
    });
    expect(dates.body).toEqual({ date_to: ['Ensure this date is on or after date_from.'] });
    expect(quantity.body).toEqual({ quantity: ['Ensure this value is greater than 0.'] });
    expect(overPrice.body).toEqual({
      discount_fixed_per_quantity: ['Ensure this value is less than or equal to price.'],
    });
    expect((await api.get(DRAFT_LINES)).body.count).toBe(0);
  });
});

describe('read, update, delete', () => {
  it('GET one; PATCH changes what was sent; PUT replaces (unsent fields back to defaults)', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const other = await createAccount(api);
    const line = await create(api, { ...minimal(account.code), ...FULL });
    platform().clock.advanceMs(1_000);

    const got = await api.get(draftLinePath(line.uuid));
    const patched = await api.patch(draftLinePath(line.uuid), { quantity: 3, po_number: '' });
    const put = await api.put(draftLinePath(line.uuid), { ...minimal(other.code), price: '7' });

    expect(got.body).toEqual(line);
    expectStatus(patched, 200);
    expect(patched.body).toEqual({
      ...line,
      quantity: '3.00',
      po_number: '',
      last_modified_date: new Date(Date.parse(line.created_date as string) + 1_000).toISOString(),
    });
    expectStatus(put, 200);
    expect(put.body).toEqual(
      expectedLine(other, {
        uuid: line.uuid,
        price: '7.00',
        created_date: line.created_date,
        last_modified_date: patched.body.last_modified_date,
      }),
    );
  });

  it('refuses a PATCH adding a second discount to the stored one, naming the one sent', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const line = await create(api, { ...minimal(account.code), price: '100', discount_percentage: '10' });

    const response = await api.patch(draftLinePath(line.uuid), { discount_fixed_total: '5' });
    const swapped = await api.patch(draftLinePath(line.uuid), { discount_fixed_total: '5', discount_percentage: null });

    expectStatus(response, 400);
    expect(response.body).toEqual({ discount_fixed_total: [ONLY_ONE_DISCOUNT] });
    expectStatus(swapped, 200);
    expect(swapped.body).toMatchObject({ discount_percentage: null, discount_fixed_total: '5.00' });
  });

  it('PUT needs the required fields; DELETE answers 204 and the line is gone', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const line = await create(api, minimal(account.code));

    const put = await api.put(draftLinePath(line.uuid), { description: 'only this' });
    const removed = await api.delete(draftLinePath(line.uuid));
    const after = await api.get(draftLinePath(line.uuid));

    expectStatus(put, 400);
    expect(put.body).toEqual({ account: [REQUIRED], vat_type: [REQUIRED] });
    expectStatus(removed, 204);
    expect(removed.text).toBe('');
    expectStatus(after, 404);
    expect(after.body).toEqual(NOT_FOUND);
  });

  it('answers 404 for an unknown line or a path segment that is not a uuid', async () => {
    const { api } = await newOrganization(platform());
    for (const path of [draftLinePath('0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f'), draftLinePath('nope')]) {
      const response = await api.get(path);
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
  });
});

describe('the list', () => {
  it('is an envelope, oldest first, filtered by account code (unknown: empty)', async () => {
    const { api } = await newOrganization(platform());
    const a = await createAccount(api);
    const b = await createAccount(api);
    const first = await create(api, minimal(a.code));
    platform().clock.advanceMs(1_000);
    const second = await create(api, minimal(b.code));
    platform().clock.advanceMs(1_000);
    const third = await create(api, { ...minimal(a.code), date_from: '2026-01-01' });

    const all = await api.get(DRAFT_LINES);
    const ofA = await api.get(`${DRAFT_LINES}?account=${a.code}`);
    const none = await api.get(`${DRAFT_LINES}?account=no-such-account`);
    const newest = await api.get(`${DRAFT_LINES}?ordering=-created_date&page_size=1`);

    expect(all.body).toEqual({ count: 3, next: null, previous: null, results: [first, second, third] });
    expect(ofA.body.results).toEqual([first, third]);
    expect(none.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect(newest.body.results).toEqual([third]);
    expect(newest.body.next).toContain('page=2');
  });
});

describe("the account's draftinvoiceline_set", () => {
  it('holds its draft lines, oldest first, on the account, the account list and an update', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const other = await createAccount(api);
    const first = await create(api, minimal(account.code));
    platform().clock.advanceMs(1_000);
    const second = await create(api, { ...minimal(account.code), price: '3' });

    const got = await api.get(accountPath(account.code));
    const list = await api.get(`${ACCOUNTS}?ordering=created_date`);
    const patched = await api.patch(accountPath(account.code), { company_name: 'Renamed ApS' });

    expect(got.body.draftinvoiceline_set).toEqual([first, second]);
    const byCode = Object.fromEntries(
      (list.body.results as Json[]).map((item) => [item.code, item.draftinvoiceline_set]),
    );
    expect(byCode).toEqual({ [account.code]: [first, second], [other.code]: [] });
    expect(patched.body.draftinvoiceline_set).toEqual([first, second]);
  });

  it('shows an update and a delete of a line on the next read, without waiting', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const kept = await create(api, minimal(account.code));
    // Oldest first; a tie in created_date would fall back to the uuids' order.
    platform().clock.advanceMs(1_000);
    const dropped = await create(api, { ...minimal(account.code), price: '3' });

    const updated = await api.patch(draftLinePath(kept.uuid as string), { description: 'Consulting, March' });
    expectStatus(updated, 200);
    expect((await api.get(accountPath(account.code))).body.draftinvoiceline_set).toEqual([updated.body, dropped]);

    expectStatus(await api.delete(draftLinePath(dropped.uuid as string)), 204);
    expect((await api.get(accountPath(account.code))).body.draftinvoiceline_set).toEqual([updated.body]);
  });

  it('follows the Fields header: left out when not named, kept when named', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const line = await create(api, minimal(account.code));

    const without = await api.get(accountPath(account.code), { headers: { Fields: 'code' } });
    const named = await api.get(accountPath(account.code), { headers: { Fields: 'code,draftinvoiceline_set' } });

    expect(without.body).toEqual({ code: account.code, model: 'account', schema: expect.any(String) });
    expect(named.body).toEqual({
      code: account.code,
      draftinvoiceline_set: [line],
      model: 'account',
      schema: expect.any(String),
    });
  });
});
