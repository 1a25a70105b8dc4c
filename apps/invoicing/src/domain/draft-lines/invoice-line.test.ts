import { describe, expect, it } from 'vitest';
import { DRAFT_LINE_SHAPE, type DraftLineFields } from './fields.js';
import { draftInvoiceLine } from './invoice-line.js';

const UUID = '0b6f7e1a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';

const line = (overrides: Partial<DraftLineFields>): DraftLineFields => ({
  ...(DRAFT_LINE_SHAPE.defaults as DraftLineFields),
  account: '7d2b2c8e-4f5a-4b8c-9d1e-2f3a4b5c6d7e',
  description: 'Workshop',
  vat_type: 'services',
  currency: 'DKK',
  ...overrides,
});

describe('draftInvoiceLine', () => {
  it('puts the price after the discount on the invoice and keeps what it was in pricing', () => {
    expect(
      draftInvoiceLine(
        UUID,
        line({ price: '100', quantity: '2', discount_percentage: '10', po_number: 'PO-7', date_from: '2026-01-01' }),
      ),
    ).toEqual({
      description: 'Workshop',
      sku: '',
      vat_type: 'services',
      collect_vat: true,
      date_from: '2026-01-01',
      date_to: null,
      price: '90',
      quantity: '2',
      subtotal: '180.00',
      draft_invoice_line_id: UUID,
      pricing: {
        kind: 'draft_line',
        price: '100',
        discount_percentage: '10',
        discount_fixed_per_quantity: null,
        discount_fixed_total: null,
        discount: '20.00',
      },
      reference_person: '',
      account_reference_person: '',
      po_number: 'PO-7',
      case_number: '',
      invoice_supplement: null,
      custom_fields: {},
    });
  });

  it('rounds the subtotal once: a fixed total the quantity does not divide loses no cent (ISK: no decimals)', () => {
    const onInvoice = draftInvoiceLine(
      UUID,
      line({ price: '100', quantity: '3', discount_fixed_total: '10', currency: 'ISK' }),
    );
    expect(onInvoice.subtotal).toBe('290');
    expect(onInvoice.price).toBe('96.66666666666666666666666666666666666667');
    expect(onInvoice.pricing).toMatchObject({ discount_fixed_total: '10', discount: '10' });
  });
});
