import { describe, expect, it } from 'vitest';
import { invoiceViewOf } from '../../test/support/invoice-view.js';
import { VatAccountTotals, type VatExportOptions, vatExportKeeps, vatInvoiceRow } from './vat-export.js';

const options: VatExportOptions = {
  countries: 'world_wide',
  granularity: 'invoice',
  baseCurrency: 'DKK',
  exchangeRate: (currency, date) => (currency === 'EUR' && date >= '2026-01-01' ? '7.4604' : null),
};

const invoice = (input: Parameters<typeof invoiceViewOf>[0]) =>
  invoiceViewOf({
    account: 'a-1',
    account_code: 'acme',
    currency: 'DKK',
    date: '2026-01-15',
    seller: { country: 'DK' },
    buyer: { name: 'Acme ApS', country: 'DK' },
    ...input,
  });

describe('the VAT export', () => {
  it('keeps every buyer world wide, and with eu_countries only buyers in other EU countries', () => {
    const buyers = ['DK', 'DE', 'SE', 'US', 'NO'].map((country) => invoice({ buyer: { country } }));
    expect(buyers.filter((one) => vatExportKeeps(one, { countries: 'world_wide' }))).toHaveLength(5);
    expect(
      buyers.filter((one) => vatExportKeeps(one, { countries: 'eu_countries' })).map((one) => one.buyer.country),
    ).toEqual(['DE', 'SE']);
  });

  it('has a row per invoice with its rates and its amounts in the base currency at the day’s rate', () => {
    const euro = invoice({
      invoice_number: '7',
      currency: 'EUR',
      subtotal: '100.00',
      vat: '0.00',
      total: '100.00',
      reverse_charge: true,
      buyer: { name: 'Beispiel GmbH', country: 'DE', vat_number: 'DE123456789' },
      vat_breakdown: [{ rate: '0.00', base: '100.00', vat: '0.00' }],
    });
    expect(vatInvoiceRow(euro, options)).toEqual({
      invoice_number: '7',
      date: '2026-01-15',
      account_code: 'acme',
      account_name: 'Beispiel GmbH',
      country: 'DE',
      vat_number: 'DE123456789',
      currency: 'EUR',
      subtotal: '100.00',
      vat: '0.00',
      total: '100.00',
      vat_rate: '0.00',
      reverse_charge: true,
      base_currency: 'DKK',
      exchange_rate: '7.4604',
      subtotal_base: '746.04',
      vat_base: '0.00',
      total_base: '746.04',
      is_credit_note: false,
      invoices: 1,
    });
    const mixed = invoice({
      subtotal: '100.00',
      vat: '20.00',
      total: '120.00',
      vat_breakdown: [
        { rate: '25.00', base: '80.00', vat: '20.00' },
        { rate: '0.00', base: '20.00', vat: '0.00' },
      ],
    });
    expect(vatInvoiceRow(mixed, options).vat_rate).toBe('25.00;0.00');
    const noRate = invoice({ currency: 'SEK', subtotal: '10.00', vat: '2.50', total: '12.50' });
    expect(vatInvoiceRow(noRate, options)).toMatchObject({ exchange_rate: '', subtotal_base: '', total_base: '' });
  });

  it('sums an account’s invoices per VAT rate and reverse charge, credit notes netted, converted invoice by invoice', () => {
    const totals = new VatAccountTotals(options);
    const parts = [
      { rate: '25.00', base: '100.00', vat: '25.00' },
      { rate: '25.00', base: '200.00', vat: '50.00' },
      { rate: '25.00', base: '-100.00', vat: '-25.00' },
    ];
    for (const part of parts) totals.add(invoice({ currency: 'EUR', vat_breakdown: [part] }));
    totals.add(
      invoice({ currency: 'EUR', reverse_charge: true, vat_breakdown: [{ rate: '0.00', base: '33.33', vat: '0.00' }] }),
    );
    expect(totals.key).toBe('acme:a-1:EUR');
    const rows = totals.take();
    expect(
      rows.map(({ vat_rate, reverse_charge, subtotal, vat, total, total_base, invoices }) => ({
        vat_rate,
        reverse_charge,
        subtotal,
        vat,
        total,
        total_base,
        invoices,
      })),
    ).toEqual([
      {
        vat_rate: '0.00',
        reverse_charge: true,
        subtotal: '33.33',
        vat: '0.00',
        total: '33.33',
        total_base: '248.66',
        invoices: 1,
      },
      {
        vat_rate: '25.00',
        reverse_charge: false,
        subtotal: '200.00',
        vat: '50.00',
        total: '250.00',
        total_base: '1865.10',
        invoices: 3,
      },
    ]);
    expect(rows[0]).toMatchObject({ invoice_number: null, date: '', exchange_rate: '7.4604', base_currency: 'DKK' });
    expect(totals.key).toBeNull();
    expect(totals.take()).toEqual([]);
  });
});
