import { describe, expect, it } from 'vitest';
import { invoiceViewOf } from '../../test/support/invoice-view.js';
import { invoiceDocument } from './invoice-document.js';

describe('invoiceDocument of a reseller’s invoice (gaps.md §3)', () => {
  const line = { description: 'Pro (monthly)', price: '100', quantity: '1', subtotal: '100.00', vat_rate: '25.00' };

  it('names the resold account under each line that is not for the invoice’s own account', () => {
    const invoice = invoiceViewOf({
      account: 'reseller-uuid',
      account_code: 'partner',
      currency: 'DKK',
      language: 'da',
      lines: [
        { ...line, account: 'shop-uuid', account_code: 'shop-1', date_from: '2026-01-05', date_to: '2026-02-04' },
        { ...line, account: 'reseller-uuid', account_code: 'partner' },
      ],
    });

    expect(invoiceDocument(invoice).lines.map((row) => row.details)).toEqual([
      ['Konto shop-1', 'Periode 2026-01-05 – 2026-02-04'],
      [],
    ]);
    expect(invoiceDocument({ ...invoice, language: 'en' }).lines[0]!.details[0]).toBe('Account shop-1');
  });
});
