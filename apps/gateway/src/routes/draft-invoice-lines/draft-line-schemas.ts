import { VAT_TYPES } from '@billing/reference-data';
import { z } from 'zod';
import { AFTER_FIELD_CHECKS, field, filterField } from '../../http/index.js';

/** Amounts are stored as numeric(20,6) by the invoicing service. */
const AMOUNT = { maxDigits: 20, decimalPlaces: 6 } as const;
/** The references and po_number: plain strings, as on subscriptions and invoice lines; null is "". */
const text128 = () => field.blankableString({ max: 128 });

export const DISCOUNT_FIELDS = ['discount_percentage', 'discount_fixed_per_quantity', 'discount_fixed_total'] as const;

/** The invoicing service's wording, so the gateway and the service refuse alike. */
export const DRAFT_LINE_MESSAGES = {
  onlyOneDiscount: 'Only one of discount_percentage, discount_fixed_per_quantity and discount_fixed_total may be set.',
  dateToBeforeDateFrom: 'Ensure this date is on or after date_from.',
  quantityNotPositive: 'Ensure this value is greater than 0.',
} as const;

/** The writable fields of api-spec "Draft invoice line" with their constraints. */
const draftLineFields = {
  account: field.string({ max: 128 }),
  description: field.string(),
  vat_type: field.choice(VAT_TYPES),
  collect_vat: field.boolean(),
  date_from: field.date().nullable(),
  date_to: field.date().nullable(),
  // A negative price makes a credit or discount line.
  price: field.decimal(AMOUNT),
  quantity: field.decimal(AMOUNT),
  discount_percentage: field.decimal({ ...AMOUNT, min: 0, max: 100 }).nullable(),
  discount_fixed_per_quantity: field.decimal({ ...AMOUNT, min: 0 }).nullable(),
  discount_fixed_total: field.decimal({ ...AMOUNT, min: 0 }).nullable(),
  currency: field.currency(),
  include_in_next_renewal_invoice: field.boolean(),
  revenue_group: field.nullableString({ max: 128 }),
  reference_person: text128(),
  account_reference_person: text128(),
  po_number: text128(),
  case_number: text128(),
  invoice_supplement: field.nullableString({ allowBlank: true }),
  custom_fields: field.jsonObject(),
};

type DraftLineBodyValues = Partial<z.output<z.ZodObject<typeof draftLineFields>>>;

/**
 * What can be told from the body alone: one discount at most (each one sent is named), date_to not
 * before date_from, a quantity above 0. The service checks the same on the stored line merged with
 * a PATCH.
 */
function checkCombinations(body: DraftLineBodyValues, context: z.RefinementCtx): void {
  const problem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
  const discounts = DISCOUNT_FIELDS.filter((name) => body[name] !== undefined && body[name] !== null);
  if (discounts.length > 1) {
    for (const name of discounts) problem(name, DRAFT_LINE_MESSAGES.onlyOneDiscount);
  }
  if (body.date_from && body.date_to && body.date_to < body.date_from) {
    problem('date_to', DRAFT_LINE_MESSAGES.dateToBeforeDateFrom);
  }
  if (body.quantity !== undefined && Number(body.quantity) <= 0) {
    problem('quantity', DRAFT_LINE_MESSAGES.quantityNotPositive);
  }
}

/**
 * Create and PUT: account (a code), description and vat_type are required (gaps.md §3); currency
 * left out is the organization's base currency (the invoicing service fills it in).
 */
export const DraftLineBody = z
  .object(draftLineFields)
  .partial()
  .required({ account: true, description: true, vat_type: true })
  .superRefine(checkCombinations, AFTER_FIELD_CHECKS);

/** PATCH: anything may be left out. */
export const DraftLinePatchBody = z
  .object(draftLineFields)
  .partial()
  .superRefine(checkCombinations, AFTER_FIELD_CHECKS);

export const DraftLineFilters = z.object({ account: filterField.string() });

export const DRAFT_LINE_ORDERING = ['created_date', 'last_modified_date', 'date_from', 'date_to'] as const;

const date = () => z.string().meta({ format: 'date' });
const decimal = () => z.string().meta({ format: 'decimal' });
const timestamp = () => z.string().meta({ format: 'date-time' });

export const DraftLineSchema = z
  .object({
    uuid: z.uuid(),
    account: z.string().nullable(),
    account_uuid: z.uuid(),
    description: z.string(),
    vat_type: z.enum(VAT_TYPES),
    collect_vat: z.boolean(),
    date_from: date().nullable(),
    date_to: date().nullable(),
    price: decimal(),
    quantity: decimal(),
    discount_percentage: decimal().nullable(),
    discount_fixed_per_quantity: decimal().nullable(),
    discount_fixed_total: decimal().nullable(),
    currency: z.string(),
    include_in_next_renewal_invoice: z.boolean(),
    revenue_group: z.string().nullable(),
    created_date: timestamp(),
    last_modified_date: timestamp(),
    reference_person: z.string(),
    account_reference_person: z.string(),
    po_number: z.string(),
    case_number: z.string(),
    invoice_supplement: z.string().nullable(),
    custom_fields: z.record(z.string(), z.unknown()),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'DraftInvoiceLine' });
