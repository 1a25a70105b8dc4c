import { applyWrite } from '@billing/domain-kit';
import { describe, expect, it } from 'vitest';
import {
  DATE_TO_BEFORE_DATE_FROM,
  DISCOUNT_ON_NEGATIVE_PRICE,
  DISCOUNT_OVER_LINE,
  DISCOUNT_OVER_PRICE,
  DRAFT_LINE_SHAPE,
  type DraftLineFields,
  draftLineViolations,
  ONLY_ONE_DISCOUNT,
  QUANTITY_NOT_POSITIVE,
} from './fields.js';

const ACCOUNT = '7d2b2c8e-4f5a-4b8c-9d1e-2f3a4b5c6d7e';

const line = (overrides: Partial<DraftLineFields> = {}): DraftLineFields => ({
  ...(DRAFT_LINE_SHAPE.defaults as DraftLineFields),
  account: ACCOUNT,
  description: 'Consulting',
  vat_type: 'services',
  currency: 'DKK',
  ...overrides,
});

const ALL = new Set(Object.keys(line()));
const check = (overrides: Partial<DraftLineFields>, present: ReadonlySet<string> = ALL) =>
  draftLineViolations(line(overrides), present);

describe('DRAFT_LINE_SHAPE', () => {
  it('requires account, description, vat_type and currency on create, and defaults the rest', () => {
    const write = { values: {}, present: new Set<string>() };
    expect(applyWrite(DRAFT_LINE_SHAPE, null, write, 'create').violations).toEqual([
      { field: 'account', description: 'This field is required.' },
      { field: 'description', description: 'This field is required.' },
      { field: 'vat_type', description: 'This field is required.' },
      { field: 'currency', description: 'This field is required.' },
    ]);
    const values = { account: ACCOUNT, description: 'Setup', vat_type: 'services', currency: 'EUR' };
    expect(applyWrite(DRAFT_LINE_SHAPE, null, { values, present: new Set(Object.keys(values)) }, 'create')).toEqual({
      violations: [],
      fields: {
        account: ACCOUNT,
        description: 'Setup',
        vat_type: 'services',
        currency: 'EUR',
        collect_vat: true,
        date_from: null,
        date_to: null,
        price: '0',
        quantity: '1',
        discount_percentage: null,
        discount_fixed_per_quantity: null,
        discount_fixed_total: null,
        include_in_next_renewal_invoice: false,
        revenue_group: null,
        reference_person: '',
        account_reference_person: '',
        po_number: '',
        case_number: '',
        invoice_supplement: null,
        custom_fields: {},
      },
    });
  });

  it('refuses null for the non-nullable fields and accepts it for the nullable ones', () => {
    const values = { price: null, collect_vat: null, date_from: null, discount_percentage: null };
    expect(applyWrite(DRAFT_LINE_SHAPE, line(), { values, present: new Set(Object.keys(values)) }, 'patch')).toEqual({
      fields: null,
      violations: [
        { field: 'price', description: 'This field may not be null.' },
        { field: 'collect_vat', description: 'This field may not be null.' },
      ],
    });
  });
});

describe('draftLineViolations', () => {
  it('accepts a complete valid line', () => {
    expect(
      check({
        price: '-250.5',
        quantity: '0.25',
        date_from: '2026-01-01',
        date_to: '2026-01-31',
        revenue_group: 'r'.repeat(128),
        po_number: 'p'.repeat(128),
        vat_type: 'physical',
        currency: 'ISK',
      }),
    ).toEqual([]);
  });

  it('names each field that breaks its own rule', () => {
    expect(
      check({
        account: 'acme',
        description: '   ',
        vat_type: 'digital',
        currency: 'XYZ',
        date_from: '2026-02-30',
        reference_person: 'x'.repeat(129),
        case_number: 'c'.repeat(129),
        revenue_group: 'g'.repeat(129),
        price: '1e3',
        quantity: '0',
      }),
    ).toEqual([
      { field: 'account', description: 'Must be a valid UUID.' },
      { field: 'description', description: 'This field may not be blank.' },
      { field: 'vat_type', description: '"digital" is not a valid choice.' },
      { field: 'currency', description: '"XYZ" is not a valid choice.' },
      { field: 'date_from', description: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.' },
      { field: 'reference_person', description: 'Ensure this field has no more than 128 characters.' },
      { field: 'case_number', description: 'Ensure this field has no more than 128 characters.' },
      { field: 'revenue_group', description: 'Ensure this field has no more than 128 characters.' },
      { field: 'price', description: 'A valid number is required.' },
      { field: 'quantity', description: QUANTITY_NOT_POSITIVE },
    ]);
  });

  it('keeps amounts within numeric(20, 6)', () => {
    expect(check({ price: '1.1234567', quantity: '123456789012345' })).toEqual([
      { field: 'price', description: 'Ensure that there are no more than 6 decimal places.' },
      { field: 'quantity', description: 'Ensure that there are no more than 14 digits before the decimal point.' },
    ]);
    expect(check({ price: '-99999999999999.999999', quantity: '0.000001' })).toEqual([]);
  });

  it('refuses a negative quantity', () => {
    expect(check({ quantity: '-1' })).toEqual([{ field: 'quantity', description: QUANTITY_NOT_POSITIVE }]);
  });

  it.each([
    ['2026-01-15', '2026-01-15'],
    ['2026-01-15', null],
    [null, '2026-01-15'],
    ['2024-02-29', '2024-03-01'],
  ])('accepts date_from %j with date_to %j', (date_from, date_to) => {
    expect(check({ date_from, date_to })).toEqual([]);
  });

  it('refuses date_to before date_from', () => {
    expect(check({ date_from: '2026-01-15', date_to: '2026-01-14' })).toEqual([
      { field: 'date_to', description: DATE_TO_BEFORE_DATE_FROM },
    ]);
  });
});

describe('discounts', () => {
  const priced = { price: '100', quantity: '3' };

  it.each([
    { discount_percentage: '0' },
    { discount_percentage: '100' },
    { discount_fixed_per_quantity: '100' },
    { discount_fixed_total: '300' },
    { discount_fixed_total: '0.5' },
  ])('accepts %j on 3 × 100', (discount) => {
    expect(check({ ...priced, ...discount })).toEqual([]);
  });

  it('refuses two discounts at once, naming each one sent', () => {
    expect(check({ ...priced, discount_percentage: '10', discount_fixed_total: '5' })).toEqual([
      { field: 'discount_percentage', description: ONLY_ONE_DISCOUNT },
      { field: 'discount_fixed_total', description: ONLY_ONE_DISCOUNT },
    ]);
    expect(
      check({ ...priced, discount_percentage: '1', discount_fixed_per_quantity: '1', discount_fixed_total: '1' }),
    ).toEqual([
      { field: 'discount_percentage', description: ONLY_ONE_DISCOUNT },
      { field: 'discount_fixed_per_quantity', description: ONLY_ONE_DISCOUNT },
      { field: 'discount_fixed_total', description: ONLY_ONE_DISCOUNT },
    ]);
  });

  it('on a PATCH names only the sent discount, not the stored one it conflicts with', () => {
    const merged = { ...priced, discount_percentage: '10', discount_fixed_total: '5' };
    expect(check(merged, new Set(['discount_fixed_total']))).toEqual([
      { field: 'discount_fixed_total', description: ONLY_ONE_DISCOUNT },
    ]);
  });

  it('refuses negative discounts and a percentage over 100', () => {
    expect(check({ ...priced, discount_fixed_total: '-1' })).toEqual([
      { field: 'discount_fixed_total', description: 'Ensure this value is greater than or equal to 0.' },
    ]);
    expect(check({ ...priced, discount_percentage: '100.000001' })).toEqual([
      { field: 'discount_percentage', description: 'Ensure this value is less than or equal to 100.' },
    ]);
  });

  it('never takes a line past zero', () => {
    expect(check({ ...priced, discount_fixed_per_quantity: '100.01' })).toEqual([
      { field: 'discount_fixed_per_quantity', description: DISCOUNT_OVER_PRICE },
    ]);
    expect(check({ ...priced, discount_fixed_total: '300.000001' })).toEqual([
      { field: 'discount_fixed_total', description: DISCOUNT_OVER_LINE },
    ]);
  });

  it('refuses a discount on a negative price', () => {
    expect(check({ price: '-10', discount_percentage: '5' })).toEqual([
      { field: 'discount_percentage', description: DISCOUNT_ON_NEGATIVE_PRICE },
    ]);
  });

  it('checks a discount against the line only when price and quantity are valid', () => {
    expect(check({ price: 'x', discount_fixed_total: '5' })).toEqual([
      { field: 'price', description: 'A valid number is required.' },
    ]);
    expect(check({ quantity: '0', price: '10', discount_fixed_total: '5' })).toEqual([
      { field: 'quantity', description: QUANTITY_NOT_POSITIVE },
    ]);
    expect(check({ discount_fixed_total: '5.1234567' })).toEqual([
      { field: 'discount_fixed_total', description: 'Ensure that there are no more than 6 decimal places.' },
    ]);
  });
});
