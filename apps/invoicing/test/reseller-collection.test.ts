/**
 * Reseller billing on the real clock (gaps.md §3), against a real, migrated throwaway schema: a
 * resold account's charge waits on the reseller's pending invoice of its collection day, and the
 * grouped-invoice issuer (issueDuePendingInvoices, the worker's pass) issues it only once that day
 * has ended where the organization is. The HTTP acceptance on test clocks is
 * apps/gateway/test/contract/invoices-reseller.test.ts; the accounts service is fixed facts in
 * memory here, as in the other tests of invoicing's own transactions.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { TestClock, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceEntity } from '../src/db/entities/invoice.entity.js';
import { InvoiceLineEntity } from '../src/db/entities/invoice-line.entity.js';
import type { Buyer, Directory, Seller } from '../src/domain/directory.js';
import type { ReceivedCharge } from '../src/domain/received-charge.js';
import type { InvoicingDeps } from '../src/use-cases/deps.js';
import { invoiceCharge } from '../src/use-cases/invoice-charge.js';
import { issueDuePendingInvoices } from '../src/use-cases/issue-pending.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

const clock = new TestClock('2026-01-15T09:00:00.000Z');
let database: TestSchema;
let orm: MikroORM;

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_reseller'));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

const party = { name: 'Acme', address: '', zipcode: '', city: '', country: 'DK', vat_number: '', email: '' };
const seller: Seller = {
  party,
  time_zone: 'Europe/Copenhagen',
  default_payment_terms: 14,
  default_collection_method: 'invoice',
  bank_accounts: [],
  base_currency: 'DKK',
  test_clock_time: null,
  features: [],
  exchange_rates: [],
  reminder_schedule_days: [3, 10, 20],
  reminder_fee: '',
};
const RESELLER = randomUUID();
const RESOLD = randomUUID();
const account = (id: string, code: string, settings: Partial<Buyer>): Buyer => ({
  account_id: id,
  code,
  party: { ...party, name: code },
  language: 'en',
  invoice_note: null,
  payment_terms: null,
  collection_method: null,
  recipients: [],
  einvoicing: {
    ean_invoicing: false,
    einvoicing_identifier_schema: '',
    ean_number: null,
    einvoicing_intermediator: null,
    legal_country: 'DK',
  },
  einvoice_field_mappings: [],
  is_getting_reminders: true,
  reseller: null,
  reseller_billing_frequency: null,
  reseller_billing_grouping: null,
  ...settings,
});
const accounts = new Map<string, Buyer>([
  [RESELLER, account(RESELLER, 'partner', { reseller_billing_frequency: 'end_of_month' })],
  [RESOLD, account(RESOLD, 'shop', { reseller: RESELLER })],
]);
const directory: Directory = {
  buyer: async (_context, accountId) => accounts.get(accountId)!,
  buyers: async (_context, accountIds) =>
    new Map(accountIds.filter((id) => accounts.has(id)).map((id) => [id, accounts.get(id)!])),
  seller: async () => seller,
  accountSummaries: async () => [],
  announceInvoices: async () => {},
  announceAccountsInvoices: async () => {},
  close() {},
};

function renewal(): ReceivedCharge {
  return {
    uuid: randomUUID(),
    subscription: randomUUID(),
    account: RESOLD,
    kind: 'renewal',
    currency: 'DKK',
    group_on_invoice: false,
    po_number: '',
    collection_method: 'invoice',
    invoice_supplement: null,
    reference_person: '',
    account_reference_person: '',
    case_number: '',
    custom_fields: {},
    due_at: new Date('2026-01-15T09:00:00.000Z'),
    payment_terms: null,
    credit_all_invoices: false,
    lines: [
      {
        kind: 'renewal',
        terms: randomUUID(),
        plan: randomUUID(),
        plan_name: 'Pro',
        plan_code: 'pro',
        terms_code: 'monthly',
        collect_vat: true,
        vat_type: 'services',
        date_from: '2026-01-15',
        date_to: '2026-02-14',
        days: 31,
        period_days: 31,
        period_date_from: '2026-01-15',
        period_date_to: '2026-02-14',
        quantity: 1,
        unit_price: '100',
        price_source: 'terms',
        tiers_applied: [],
        discounted_unit_price: '100',
        amount: '100.00',
      },
    ],
  };
}

describe('a reseller billed end_of_month, on the real clock', () => {
  it('collects the resold line on a pending invoice issued by the worker when the 31st ends in Copenhagen', async () => {
    const deps: InvoicingDeps = { orm, clock, directory };
    const organizationId = randomUUID();
    await inTransaction(orm, (em) =>
      invoiceCharge(deps, em, renewal(), { organizationId, requestId: 'req-1', occurredAt: clock.now() }),
    );

    const [pending] = await orm.em.fork().find(InvoiceEntity, { organization_id: organizationId });
    expect(pending).toMatchObject({
      account_id: RESELLER,
      account_code: 'partner',
      status: 'pending',
      date: '2026-01-31',
      due_date: '2026-02-14',
      total: '125.000000',
      issue_after: new Date('2026-01-31T23:00:00.000Z'),
    });
    const lines = await orm.em.fork().find(InvoiceLineEntity, { invoice_id: pending!.id });
    expect(lines.map((line) => [line.account_id, line.account_code, line.subtotal])).toEqual([
      [RESOLD, 'shop', '100.000000'],
    ]);

    clock.set('2026-01-31T22:59:59.000Z');
    expect(await issueDuePendingInvoices(deps)).toBe(0);
    clock.set('2026-01-31T23:00:00.000Z');
    expect(await issueDuePendingInvoices(deps)).toBe(1);
    const issued = await orm.em.fork().findOneOrFail(InvoiceEntity, { id: pending!.id });
    expect([issued.status, issued.invoice_number, issued.date]).toEqual(['open', 1, '2026-01-31']);
  });
});
