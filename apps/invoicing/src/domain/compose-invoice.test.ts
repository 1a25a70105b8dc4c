import { VAT_REASON_TEXT } from '@billing/tax';
import { describe, expect, it } from 'vitest';
import { composeInvoice, dueDate, type LineSource, settledStatus } from './compose-invoice.js';

const line = (subtotal: string, extra: Partial<LineSource> = {}): LineSource => ({
  description: 'Pro',
  sku: 'pro',
  vat_type: 'services',
  collect_vat: true,
  date_from: '2026-01-15',
  date_to: '2026-02-14',
  price: '100',
  quantity: '2',
  subtotal,
  ...extra,
});

describe('composeInvoice', () => {
  it('Danish seller and buyer: 25 % on 200.00 → 50.00, total 250.00', () => {
    const { lines, totals } = composeInvoice(
      [line('200.00')],
      { seller_country: 'DK', buyer_country: 'DK', buyer_vat_number: null },
      'DKK',
    );
    expect(lines.map((l) => [l.vat_rate, l.vat, l.total])).toEqual([['25', '50.00', '250.00']]);
    expect(totals).toEqual({
      subtotal: '200.00',
      vat: '50.00',
      total: '250.00',
      vat_breakdown: [{ rate: '25.00', base: '200.00', vat: '50.00' }],
      reverse_charge: false,
      vat_note: '',
    });
  });

  it('German company with a VAT number: 0 and the reverse-charge note; US buyer: 0', () => {
    const german = composeInvoice(
      [line('200.00')],
      { seller_country: 'DK', buyer_country: 'DE', buyer_vat_number: 'DE123456789' },
      'DKK',
    );
    expect(german.totals).toMatchObject({ vat: '0.00', total: '200.00', reverse_charge: true });
    expect(german.totals.vat_note).toBe(VAT_REASON_TEXT.eu_reverse_charge);
    const us = composeInvoice(
      [line('200.00')],
      { seller_country: 'DK', buyer_country: 'US', buyer_vat_number: null },
      'DKK',
    );
    expect(us.totals).toMatchObject({ vat: '0.00', total: '200.00', reverse_charge: false });
    expect(us.totals.vat_note).toBe(VAT_REASON_TEXT.outside_eu);
  });

  it('VAT is rounded once per rate on the sum, credits mirror charges, ISK has no decimals', () => {
    const mixed = composeInvoice(
      [line('-128.57'), line('192.86')],
      { seller_country: 'DK', buyer_country: 'DK', buyer_vat_number: null },
      'DKK',
    );
    // 64.29 × 25 % = 16.0725 → 16.07 (the lines alone would say -32.14 + 48.22 = 16.08)
    expect(mixed.totals).toMatchObject({ subtotal: '64.29', vat: '16.07', total: '80.36' });
    const isk = composeInvoice(
      [line('1499')],
      { seller_country: 'IS', buyer_country: 'IS', buyer_vat_number: null },
      'ISK',
    );
    expect(isk.totals).toMatchObject({ subtotal: '1499', vat: '0', total: '1499' });
  });
});

describe('dates', () => {
  it('due date adds calendar days (payment terms: domain-kit effectivePaymentTerms)', () => {
    expect(dueDate('2026-01-15', 14)).toBe('2026-01-29');
    expect(dueDate('2026-02-20', 14)).toBe('2026-03-06');
    expect(dueDate('2026-01-15', 0)).toBe('2026-01-15');
  });
});

describe('settledStatus', () => {
  it('is open while a balance is left, else paid or credited by what settled it', () => {
    expect(settledStatus('0.01', 'payment')).toBe('open');
    expect(settledStatus('-250.00', 'credit')).toBe('open');
    expect(settledStatus('0.00', 'payment')).toBe('paid');
    expect(settledStatus('0', 'credit')).toBe('credited');
  });
});
