/**
 * findAccountsByIds gives each account's values as the ORM loads the entity (a bigint beyond a JS
 * number's precision as its text, custom fields as their JSON, dates as Dates, nulls as null), as
 * plain rows: nothing is left in the caller's unit of work for a flush to compare.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { TestClock } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findAccountsByIds } from '../src/db/accounts-by-id.js';
import { AccountEntity } from '../src/db/entities/account.entity.js';
import { type AccountsSchema, openAccountsSchema } from './support/accounts-schema.js';

let db: AccountsSchema;
const organizationId = randomUUID();
const full = randomUUID();
const reseller = randomUUID();
const created = new Date('2026-03-01T09:00:00.123Z');
const updated = new Date('2026-03-02T10:30:00.456Z');

const address = {
  legal_address: 'Vej 1',
  legal_zipcode: '2100',
  legal_city: 'København',
  legal_country: 'DK',
  legal_vat_number: 'DK12345678',
  billing_same_as_legal: false,
  billing_address: 'Gade 2',
  billing_zipcode: '8000',
  billing_city: 'Aarhus',
  billing_country: 'DK',
};

beforeAll(async () => {
  db = await openAccountsSchema(new TestClock('2026-03-01T09:00:00Z'));
  await inTransaction(db.orm, async (em) => {
    em.create(AccountEntity, {
      id: reseller,
      organization_id: organizationId,
      code: 'RESELLER',
      ean_invoicing: false,
      einvoicing_identifier_schema: '',
      language: 'da',
      ...address,
      update_from_registers: false,
      is_getting_reminders: false,
      custom_fields: {},
      industry: '',
      is_archived: false,
      created_at: created,
      updated_at: created,
    });
    em.create(AccountEntity, {
      id: full,
      organization_id: organizationId,
      code: 'FULL-1',
      company_name: 'Æblegården ApS',
      first_name: 'Jane',
      middle_name: null,
      last_name: 'Doe',
      title: 'Ms',
      gender: 'female',
      erp_id: 'ERP-9',
      partner: '9007199254740993',
      ean_invoicing: true,
      einvoicing_identifier_schema: '0088',
      ean_number: '5790000000001',
      einvoicing_intermediator: null,
      invoice_note: 'Net 14',
      language: 'en',
      ...address,
      update_from_registers: true,
      default_payment_terms: 14,
      default_collection_method: 'bank_transfer',
      is_getting_reminders: true,
      reseller,
      reseller_billing_frequency: 'monthly',
      reseller_billing_grouping: 'account',
      type: 'company',
      custom_fields: { region: 'north', tier: 2, tags: ['a', 'b'], nested: { on: true } },
      override_business_entity: null,
      register_status: 'ok',
      industry: 'Farming',
      is_archived: false,
      created_at: created,
      updated_at: updated,
    });
  });
}, 60_000);

afterAll(async () => {
  await db?.close();
});

it('gives the values the ORM loads, as plain rows left out of the unit of work', async () => {
  const loaded = await db.orm.em.fork().findOneOrFail(AccountEntity, { id: full });
  const em = db.orm.em.fork();
  const [row, ...rest] = await findAccountsByIds(em, organizationId, [full, randomUUID()]);
  expect(rest).toEqual([]);
  expect(row).toEqual({ ...loaded });
  expect(row).toMatchObject({
    partner: '9007199254740993',
    custom_fields: { region: 'north', tier: 2, tags: ['a', 'b'], nested: { on: true } },
    default_payment_terms: 14,
    reseller,
    middle_name: null,
    created_at: created,
    updated_at: updated,
  });
  expect(row!.created_at).toBeInstanceOf(Date);
  expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);
});

it('leaves out another organization’s account', async () => {
  expect(await findAccountsByIds(db.orm.em.fork(), randomUUID(), [full, reseller])).toEqual([]);
});
