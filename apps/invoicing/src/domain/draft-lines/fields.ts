import { isUuid, textLength, type WritableShape } from '@billing/domain-kit';
import type { FieldViolation } from '@billing/errors';
import { type Decimal, parseAmount } from '@billing/money';
import { isCurrencyCode, VAT_TYPES } from '@billing/reference-data';
import { INVALID_DATE, isIsoDate } from '../local-day.js';

/**
 * The writable fields of a draft invoice line (api-spec "Draft invoice line", gaps.md §3) and their
 * rules, checked by the service behind the gateway's own validation. Pure: no I/O.
 */
export interface DraftLineFields {
  /** The account's uuid, resolved (and checked to be the organization's) by the gateway. */
  account: string;
  description: string;
  vat_type: string;
  collect_vat: boolean;
  /** YYYY-MM-DD or null. */
  date_from: string | null;
  date_to: string | null;
  /** Decimal text; may be negative (a credit or discount line). */
  price: string;
  /** Decimal text, greater than 0. */
  quantity: string;
  /** At most one of the three discounts is set (decimal text, not negative). */
  discount_percentage: string | null;
  discount_fixed_per_quantity: string | null;
  discount_fixed_total: string | null;
  currency: string;
  include_in_next_renewal_invoice: boolean;
  revenue_group: string | null;
  reference_person: string;
  account_reference_person: string;
  po_number: string;
  case_number: string;
  invoice_supplement: string | null;
  custom_fields: Record<string, unknown>;
}

/**
 * gaps.md §3: create needs account, description and vat_type. `currency` has no fixed default (it
 * is the organization's base currency), so the shape requires it and the use cases fill in a
 * currency the client left out before they apply the write (currency-default.ts). Here a currency
 * sent as null is refused, and so is a write that skipped that step.
 */
export const DRAFT_LINE_SHAPE: WritableShape<DraftLineFields> = {
  required: ['account', 'description', 'vat_type', 'currency'],
  defaults: {
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
};

export const DISCOUNT_FIELDS = ['discount_percentage', 'discount_fixed_per_quantity', 'discount_fixed_total'] as const;
export type DiscountField = (typeof DISCOUNT_FIELDS)[number];

export const ONLY_ONE_DISCOUNT =
  'Only one of discount_percentage, discount_fixed_per_quantity and discount_fixed_total may be set.';
export const DATE_TO_BEFORE_DATE_FROM = 'Ensure this date is on or after date_from.';
export const QUANTITY_NOT_POSITIVE = 'Ensure this value is greater than 0.';
export const DISCOUNT_ON_NEGATIVE_PRICE = 'A discount cannot be given on a line with a negative price.';
export const DISCOUNT_OVER_PRICE = 'Ensure this value is less than or equal to price.';
export const DISCOUNT_OVER_LINE = 'Ensure this value is less than or equal to price × quantity.';
const INVALID_UUID = 'Must be a valid UUID.';
const BLANK = 'This field may not be blank.';

/** numeric(20, 6), as every amount of the service is stored. */
const MAX_DECIMAL_PLACES = 6;
const MAX_WHOLE_DIGITS = 14;
const MAX_TEXT = 128;

/** The decimal, or the DRF message why it cannot be stored as numeric(20, 6). */
function decimalOf(value: string): Decimal | string {
  const amount = parseAmount(value);
  if (amount === null) return 'A valid number is required.';
  const [whole = '', fraction = ''] = value.replace('-', '').split('.');
  if (fraction.length > MAX_DECIMAL_PLACES) {
    return `Ensure that there are no more than ${MAX_DECIMAL_PLACES} decimal places.`;
  }
  if (whole.replace(/^0+/, '').length > MAX_WHOLE_DIGITS) {
    return `Ensure that there are no more than ${MAX_WHOLE_DIGITS} digits before the decimal point.`;
  }
  return amount;
}

/** Parses each decimal field, collecting a violation for each one that is not a storable decimal. */
function parseDecimals(
  fields: DraftLineFields,
  violations: FieldViolation[],
): Partial<Record<'price' | 'quantity' | DiscountField, Decimal>> {
  const parsed: Partial<Record<'price' | 'quantity' | DiscountField, Decimal>> = {};
  for (const field of ['price', 'quantity', ...DISCOUNT_FIELDS] as const) {
    const value = fields[field];
    if (value === null) continue;
    const result = decimalOf(value);
    if (typeof result === 'string') violations.push({ field, description: result });
    else parsed[field] = result;
  }
  return parsed;
}

function maxLength(field: keyof DraftLineFields, value: string | null, violations: FieldViolation[]): void {
  if (value !== null && textLength(value) > MAX_TEXT) {
    violations.push({ field, description: `Ensure this field has no more than ${MAX_TEXT} characters.` });
  }
}

/**
 * Every rule of a draft line, checked on the merged line (so a PATCH of one field is checked
 * against the stored others). `present` names the fields the write sent: a discount conflict is
 * reported on each conflicting discount the client sent, not on the one already stored.
 */
export function draftLineViolations(fields: DraftLineFields, present: ReadonlySet<string>): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (!isUuid(fields.account)) violations.push({ field: 'account', description: INVALID_UUID });
  if (fields.description.trim() === '') violations.push({ field: 'description', description: BLANK });
  if (!(VAT_TYPES as readonly string[]).includes(fields.vat_type)) {
    violations.push({ field: 'vat_type', description: `"${fields.vat_type}" is not a valid choice.` });
  }
  if (!isCurrencyCode(fields.currency)) {
    violations.push({ field: 'currency', description: `"${fields.currency}" is not a valid choice.` });
  }
  violations.push(...dateViolations(fields));
  for (const field of ['reference_person', 'account_reference_person', 'po_number', 'case_number'] as const) {
    maxLength(field, fields[field], violations);
  }
  maxLength('revenue_group', fields.revenue_group, violations);
  const amounts = parseDecimals(fields, violations);
  if (amounts.quantity?.lessThanOrEqualTo(0)) {
    violations.push({ field: 'quantity', description: QUANTITY_NOT_POSITIVE });
    delete amounts.quantity;
  }
  violations.push(...discountViolations(fields, amounts, present));
  return violations;
}

function dateViolations(fields: DraftLineFields): FieldViolation[] {
  const violations: FieldViolation[] = [];
  for (const field of ['date_from', 'date_to'] as const) {
    const value = fields[field];
    if (value !== null && !isIsoDate(value)) violations.push({ field, description: INVALID_DATE });
  }
  // Valid YYYY-MM-DD dates order as text.
  if (violations.length === 0 && fields.date_from !== null && fields.date_to !== null) {
    if (fields.date_to < fields.date_from) violations.push({ field: 'date_to', description: DATE_TO_BEFORE_DATE_FROM });
  }
  return violations;
}

function discountViolations(
  fields: DraftLineFields,
  amounts: Partial<Record<'price' | 'quantity' | DiscountField, Decimal>>,
  present: ReadonlySet<string>,
): FieldViolation[] {
  const set = DISCOUNT_FIELDS.filter((field) => fields[field] !== null);
  if (set.length > 1) {
    const sent = set.filter((field) => present.has(field));
    return (sent.length > 0 ? sent : set).map((field) => ({ field, description: ONLY_ONE_DISCOUNT }));
  }
  const [field] = set;
  if (field === undefined) return [];
  const discount = amounts[field];
  const { price, quantity } = amounts;
  // A field that is not a valid decimal (or quantity ≤ 0) was already named; bounds need all three.
  if (discount === undefined || price === undefined || quantity === undefined) return [];
  if (discount.isNegative()) return [{ field, description: 'Ensure this value is greater than or equal to 0.' }];
  if (field === 'discount_percentage') {
    if (discount.greaterThan(100)) return [{ field, description: 'Ensure this value is less than or equal to 100.' }];
  }
  // A negative line is itself the credit or discount; discounting it has no clear meaning.
  if (price.isNegative()) return [{ field, description: DISCOUNT_ON_NEGATIVE_PRICE }];
  // A discount takes the line at most to zero, never past it.
  if (field === 'discount_fixed_per_quantity' && discount.greaterThan(price)) {
    return [{ field, description: DISCOUNT_OVER_PRICE }];
  }
  if (field === 'discount_fixed_total' && discount.greaterThan(price.times(quantity))) {
    return [{ field, description: DISCOUNT_OVER_LINE }];
  }
  return [];
}
