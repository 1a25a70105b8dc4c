import { describe, expect, it } from 'vitest';
import {
  type ChargeFacts,
  type ChargeLineFacts,
  chargeLineSources,
  groupKey,
  lineDescription,
} from './charge-lines.js';

const line = (overrides: Partial<ChargeLineFacts> = {}): ChargeLineFacts => ({
  kind: 'renewal',
  terms: 'terms-1',
  plan: 'plan-1',
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
  quantity: 2,
  unit_price: '100',
  price_source: 'terms',
  tiers_applied: [],
  discounted_unit_price: '90',
  amount: '180.00',
  ...overrides,
});

const charge = (overrides: Partial<ChargeFacts> = {}): ChargeFacts => ({
  subscription: 'sub-1',
  account: 'account-1',
  kind: 'renewal',
  currency: 'DKK',
  group_on_invoice: true,
  po_number: 'PO-7',
  collection_method: 'invoice',
  invoice_supplement: 'Dept. 4',
  reference_person: 'Ann',
  account_reference_person: 'Bo',
  case_number: 'C-1',
  custom_fields: { team: 'a' },
  lines: [line()],
  ...overrides,
});

describe('lineDescription', () => {
  it('a whole renewal period is plan and terms only', () => {
    expect(lineDescription(line(), {}, 'en')).toBe('Pro (monthly)');
    expect(lineDescription(line(), {}, 'da')).toBe('Pro (monthly)');
  });

  it('a partial change line names what it is and the days, then supplement and note on their own lines', () => {
    const partial = line({ kind: 'change_credit', days: 10, period_days: 31 });
    expect(lineDescription(partial, { invoice_supplement: 'Dept. 4', invoice_note: 'Thanks' }, 'en')).toBe(
      'Pro (monthly), Credit for unused time, 10 of 31 days\nDept. 4\nThanks',
    );
  });

  it("is written in the invoice's language: what the line is and the share of its period", () => {
    const cases = [
      ['change_credit', 'Credit for unused time', 'Kredit for ubrugt tid'],
      ['change_charge', 'Remaining time', 'Resterende tid'],
      ['change_elapsed', 'Time used before the change', 'Brugt tid før ændringen'],
      ['cancel_credit', 'Credit for unused time', 'Kredit for ubrugt tid'],
      ['cancel_elapsed', 'Time used', 'Brugt tid'],
    ];
    for (const [kind, en, da] of cases) {
      const partial = line({ kind: kind!, days: 12, period_days: 30 });
      expect(lineDescription(partial, {}, 'en')).toBe(`Pro (monthly), ${en}, 12 of 30 days`);
      expect(lineDescription(partial, {}, 'da')).toBe(`Pro (monthly), ${da}, 12 af 30 dage`);
    }
    // A whole period changed at its start: what it is, no share.
    expect(lineDescription(line({ kind: 'change_charge' }), {}, 'da')).toBe('Pro (monthly), Resterende tid');
  });
});

describe('chargeLineSources', () => {
  it('keeps the discounted unit price, the rounded amount and what the line came from', () => {
    expect(chargeLineSources(charge(), 'Thanks', 'en')).toEqual([
      {
        description: 'Pro (monthly)\nDept. 4\nThanks',
        sku: 'pro',
        vat_type: 'services',
        collect_vat: true,
        date_from: '2026-01-15',
        date_to: '2026-02-14',
        price: '90',
        quantity: '2',
        subtotal: '180.00',
        subscription: 'sub-1',
        terms: 'terms-1',
        product_id: 'plan-1',
        pricing: {
          kind: 'renewal',
          unit_price: '100',
          price_source: 'terms',
          tiers_applied: [],
          discounted_unit_price: '90',
          quantity: 2,
          days: 31,
          period_days: 31,
          period_date_from: '2026-01-15',
          period_date_to: '2026-02-14',
        },
        reference_person: 'Ann',
        account_reference_person: 'Bo',
        po_number: 'PO-7',
        case_number: 'C-1',
        invoice_supplement: 'Dept. 4',
        custom_fields: { team: 'a' },
      },
    ]);
  });
});

describe('groupKey', () => {
  it('groups renewals of group_on_invoice subscriptions by account, date, currency, terms, method and PO', () => {
    expect(groupKey(charge(), '2026-01-15', 14)).toBe('["account-1","2026-01-15","DKK",14,"invoice","PO-7"]');
    expect(groupKey(charge({ po_number: 'PO-8' }), '2026-01-15', 14)).toBe(
      '["account-1","2026-01-15","DKK",14,"invoice","PO-8"]',
    );
  });

  it('every other charge has its own invoice', () => {
    expect(groupKey(charge({ group_on_invoice: false }), '2026-01-15', 14)).toBeNull();
    expect(groupKey(charge({ kind: 'change' }), '2026-01-15', 14)).toBeNull();
  });
});
