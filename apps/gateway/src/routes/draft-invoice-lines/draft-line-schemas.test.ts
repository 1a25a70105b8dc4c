import { describe, expect, it } from 'vitest';
import { isHttpError, parseOrThrow } from '../../http/index.js';
import { DRAFT_LINE_MESSAGES, DraftLineBody, DraftLinePatchBody } from './draft-line-schemas.js';

/** The DRF body of a refused parse, or the parsed value. */
function outcome(schema: Parameters<typeof parseOrThrow>[0], input: unknown): unknown {
  try {
    return { ok: parseOrThrow(schema, input) };
  } catch (error) {
    if (isHttpError(error)) return { status: error.status, body: error.body };
    throw error;
  }
}

const minimal = { account: 'acme', description: 'Setup fee', vat_type: 'services', currency: 'DKK' };

describe('draft line create body', () => {
  it('needs account, description and vat_type (gaps.md §3; the invoicing service defaults currency)', () => {
    expect(outcome(DraftLineBody, {})).toEqual({
      status: 400,
      body: {
        account: ['This field is required.'],
        description: ['This field is required.'],
        vat_type: ['This field is required.'],
      },
    });
  });

  it('hands amounts on with six decimals and takes a negative price (a credit line)', () => {
    expect(outcome(DraftLineBody, { ...minimal, price: '-10.5', quantity: 2, discount_percentage: null })).toEqual({
      ok: { ...minimal, price: '-10.500000', quantity: '2.000000', discount_percentage: null },
    });
  });

  it.each([
    [{ price: '1.1234567' }, { price: ['Ensure that there are no more than 6 decimal places.'] }],
    [
      { price: '123456789012345' },
      { price: ['Ensure that there are no more than 14 digits before the decimal point.'] },
    ],
    [{ discount_percentage: '100.01' }, { discount_percentage: ['Ensure this value is less than or equal to 100.'] }],
    [{ discount_fixed_total: '-1' }, { discount_fixed_total: ['Ensure this value is greater than or equal to 0.'] }],
    [{ currency: 'XXX' }, { currency: ['"XXX" is not a valid choice.'] }],
    [{ vat_type: 'food' }, { vat_type: ['"food" is not a valid choice.'] }],
    [
      { date_from: '2026-02-30' },
      { date_from: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] },
    ],
    [{ po_number: 'x'.repeat(129) }, { po_number: ['Ensure this field has no more than 128 characters.'] }],
    [{ description: ' ' }, { description: ['This field may not be blank.'] }],
  ])('refuses %j', (fields, body) => {
    expect(outcome(DraftLineBody, { ...minimal, ...fields })).toEqual({ status: 400, body });
  });

  it('names every discount sent when more than one is', () => {
    expect(
      outcome(DraftLineBody, {
        ...minimal,
        discount_percentage: '10',
        discount_fixed_total: '5',
        discount_fixed_per_quantity: null,
      }),
    ).toEqual({
      status: 400,
      body: {
        discount_percentage: [DRAFT_LINE_MESSAGES.onlyOneDiscount],
        discount_fixed_total: [DRAFT_LINE_MESSAGES.onlyOneDiscount],
      },
    });
  });

  it('refuses date_to before date_from and a quantity of 0, once every field is valid', () => {
    expect(outcome(DraftLinePatchBody, { date_from: '2026-02-01', date_to: '2026-01-31', quantity: '0' })).toEqual({
      status: 400,
      body: {
        date_to: [DRAFT_LINE_MESSAGES.dateToBeforeDateFrom],
        quantity: [DRAFT_LINE_MESSAGES.quantityNotPositive],
      },
    });
    expect(outcome(DraftLinePatchBody, { date_from: '2026-02-01', date_to: '2026-02-01' })).toHaveProperty('ok');
  });
});
