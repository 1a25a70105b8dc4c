import { textLength, type WritableShape } from '@billing/domain-kit';
import type { FieldViolation } from '@billing/errors';
import { isDecimalString, money } from '@billing/money';
import { COLLECTION_METHODS } from '@billing/reference-data';
import { type Interval, type IntervalType, nthRenewal } from './periods.js';

/**
 * The writable fields of a subscription (api-spec Subscription table) and their rules, as the
 * service checks them again behind the gateway. Pure: no I/O.
 */
export interface SubscriptionFields {
  terms: string;
  start_date: Date | null;
  quantity: number;
  collection_method: string;
  group_on_invoice: boolean;
  is_auto_renew_enabled: boolean;
  payment_terms: number | null;
  pre_renewal_days_offset: number;
  pre_renewal_invoicing: boolean;
  po_number: string;
  invoice_supplement: string | null;
  override_price: string | null;
  reference_person: string;
  account_reference_person: string;
  case_number: string;
  churn_reason: string | null;
  custom_churn_reason: string | null;
  custom_fields: Record<string, unknown>;
}

export const SUBSCRIPTION_SHAPE: WritableShape<SubscriptionFields> = {
  required: ['terms', 'collection_method'],
  defaults: {
    start_date: null,
    quantity: 1,
    group_on_invoice: false,
    is_auto_renew_enabled: true,
    payment_terms: null,
    pre_renewal_days_offset: 0,
    pre_renewal_invoicing: false,
    po_number: '',
    invoice_supplement: null,
    override_price: null,
    reference_person: '',
    account_reference_person: '',
    case_number: '',
    churn_reason: null,
    custom_churn_reason: null,
    custom_fields: {},
  },
};

/** Fields whose change is a term or quantity change (engine), not a plain edit. */
export const PRICING_FIELDS = ['terms', 'quantity'] as const;

const MAX_INT = 2_147_483_647;

function between(field: string, value: number, min: number, max: number): FieldViolation[] {
  if (!Number.isInteger(value) || value < min)
    return [{ field, description: `Ensure this value is greater than or equal to ${min}.` }];
  if (value > max) return [{ field, description: `Ensure this value is less than or equal to ${max}.` }];
  return [];
}

function maxLength(field: string, value: string | null, max: number): FieldViolation[] {
  return value !== null && textLength(value) > max
    ? [{ field, description: `Ensure this field has no more than ${max} characters.` }]
    : [];
}

/** Rules of each field and across fields, on the merged subscription. */
export function subscriptionViolations(fields: SubscriptionFields, backwardsCharging: boolean): FieldViolation[] {
  const violations: FieldViolation[] = [
    ...between('quantity', fields.quantity, 0, MAX_INT),
    ...(fields.payment_terms === null ? [] : between('payment_terms', fields.payment_terms, 0, MAX_INT)),
    ...between('pre_renewal_days_offset', fields.pre_renewal_days_offset, 0, 32_767),
    ...maxLength('po_number', fields.po_number, 128),
    ...maxLength('reference_person', fields.reference_person, 128),
    ...maxLength('account_reference_person', fields.account_reference_person, 128),
    ...maxLength('case_number', fields.case_number, 128),
    ...maxLength('custom_churn_reason', fields.custom_churn_reason, 100),
  ];
  if (!(COLLECTION_METHODS as readonly string[]).includes(fields.collection_method)) {
    violations.push({
      field: 'collection_method',
      description: `"${fields.collection_method}" is not a valid choice.`,
    });
  }
  if (fields.override_price !== null) {
    if (!isDecimalString(fields.override_price)) {
      violations.push({ field: 'override_price', description: 'A valid number is required.' });
    } else if (money(fields.override_price).isNegative()) {
      violations.push({ field: 'override_price', description: 'Ensure this value is greater than or equal to 0.' });
    }
  }
  if (backwardsCharging && fields.pre_renewal_days_offset > 0) {
    violations.push({
      field: 'pre_renewal_days_offset',
      description: 'Only forward-charging plan terms can be invoiced before the renewal date.',
    });
  }
  return violations;
}

/**
 * How many billing periods a start date may lie in the past. A backdated subscription catches up
 * every period since its start in the request that makes it (each one charged and invoiced), so an
 * unbounded start date was unbounded work: a start in year 1 ran past the gateway's deadline (503)
 * and went on committing and invoicing in the background (each period costs some 30 ms; 100 took 3 s
 * of the gateway's 5 s deadline). 36 periods is three years of a monthly plan, 36 days of a daily
 * one, and about a second of work.
 */
export const MAX_BACKDATED_PERIODS = 36;

/** The billing interval of plan terms as stored. */
export const termsInterval = (terms: { interval_type: string; interval_count: number }): Interval => ({
  type: terms.interval_type as IntervalType,
  count: terms.interval_count,
});

/** start_date at most MAX_BACKDATED_PERIODS periods of `interval` before `now` (in the organization's zone). */
export function startDateViolations(
  start: Date | null,
  now: Date,
  interval: Interval,
  timeZone: string,
): FieldViolation[] {
  if (start === null || start.getTime() >= now.getTime()) return [];
  const latestCatchUp = nthRenewal({ instant: start, timeZone }, interval, MAX_BACKDATED_PERIODS);
  if (latestCatchUp.getTime() >= now.getTime()) return [];
  return [
    {
      field: 'start_date',
      description: `Ensure this date is no more than ${MAX_BACKDATED_PERIODS} billing periods of the plan terms before now.`,
    },
  ];
}
