/**
 * Fixtures of the charge consumer's tests: a seller, buyers, a directory of them that counts what it
 * is asked (the accounts service's facts, fixed, in memory) and charges of the subscription engine.
 */
import { randomUUID } from 'node:crypto';
import type { Buyer, Directory, Seller } from '../../src/domain/directory.js';
import type { ReceivedCharge } from '../../src/domain/received-charge.js';

const party = {
  name: 'Acme',
  address: '',
  zipcode: '',
  city: '',
  country: 'DK',
  vat_number: '',
  email: 'billing@acme.test',
};
export const seller: Seller = {
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
export const buyer = (id: string, code: string, settings: Partial<Buyer> = {}): Buyer => ({
  account_id: id,
  code,
  party: { ...party, name: code, email: '' },
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

/** A directory over `buyers` that counts what it is asked. */
export function countingDirectory(buyers: Map<string, Buyer>) {
  const calls = { buyer: 0, buyers: 0, seller: 0, announce: 0, announceMany: 0, announced: [] as string[][] };
  const directory: Directory = {
    buyer: async (_context, accountId) => {
      calls.buyer++;
      return buyers.get(accountId)!;
    },
    buyers: async (_context, accountIds) => {
      calls.buyers++;
      return new Map(accountIds.filter((id) => buyers.has(id)).map((id) => [id, buyers.get(id)!]));
    },
    seller: async () => {
      calls.seller++;
      return seller;
    },
    accountSummaries: async () => [],
    announceInvoices: async (_context, accountId, invoiceIds) => {
      calls.announce++;
      calls.announced.push([accountId, ...invoiceIds]);
    },
    announceAccountsInvoices: async (_context, announcements) => {
      calls.announceMany++;
      for (const { accountId, invoiceIds } of announcements) calls.announced.push([accountId, ...invoiceIds]);
    },
    close() {},
  };
  return { directory, calls };
}

export function charge(account: string, amount: string, settings: Partial<ReceivedCharge> = {}): ReceivedCharge {
  return {
    uuid: randomUUID(),
    subscription: randomUUID(),
    account,
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
    due_at: new Date('2026-03-01T09:00:00.000Z'),
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
        date_from: '2026-03-01',
        date_to: '2026-03-31',
        days: 31,
        period_days: 31,
        period_date_from: '2026-03-01',
        period_date_to: '2026-03-31',
        quantity: 1,
        unit_price: amount,
        price_source: 'terms',
        tiers_applied: [],
        discounted_unit_price: amount,
        amount,
      },
    ],
    ...settings,
  };
}
