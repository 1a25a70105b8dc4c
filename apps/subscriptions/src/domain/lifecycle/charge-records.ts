import type { CurrencyCode } from '@billing/money';
import { formatAmount, formatExact, money, sum } from '@billing/money';
import type { ChargeKind, ChargeLine } from '../charges.js';
import type { TermsSnapshot } from './state.js';

/** A charge line as stored (charges.lines, pending lines) and published: plain strings, exact unit prices. */
export interface ChargeLineRecord {
  kind: ChargeKind;
  terms: string;
  plan: string;
  currency: CurrencyCode;
  date_from: string;
  date_to: string;
  days: number;
  period_days: number;
  period_date_from: string;
  period_date_to: string;
  quantity: number;
  unit_price: string;
  price_source: 'terms' | 'override';
  tiers_applied: {
    minimum_quantity: number;
    maximum_quantity: number | null;
    discount: string;
    discount_type: string;
    amount_off_per_unit: string;
  }[];
  discounted_unit_price: string;
  /** Rounded to the currency's minor unit; negative for credits. */
  amount: string;
}

export function lineRecord(line: ChargeLine, terms: Pick<TermsSnapshot, 'uuid' | 'plan'>): ChargeLineRecord {
  return {
    kind: line.kind,
    terms: terms.uuid,
    plan: terms.plan,
    currency: line.currency,
    date_from: line.date_from,
    date_to: line.date_to,
    days: line.days,
    period_days: line.period_days,
    period_date_from: line.period.dateFrom,
    period_date_to: line.period.dateTo,
    quantity: line.quantity,
    unit_price: formatExact(line.price.unit_price),
    price_source: line.price.price_source,
    tiers_applied: line.price.tiers_applied.map((tier) => ({
      minimum_quantity: tier.minimum_quantity,
      maximum_quantity: tier.maximum_quantity,
      discount: formatExact(tier.discount),
      discount_type: tier.discount_type,
      amount_off_per_unit: formatExact(tier.amount_off_per_unit),
    })),
    discounted_unit_price: formatExact(line.price.discounted_unit_price),
    amount: formatAmount(line.amount, line.currency),
  };
}

/** The same line with the opposite sign (a credit of a charge, or the reverse). */
export function reversedLine(line: ChargeLineRecord, kind: ChargeKind): ChargeLineRecord {
  return { ...line, kind, amount: formatAmount(money(line.amount).negated(), line.currency) };
}

export function linesTotal(lines: readonly ChargeLineRecord[], currency: CurrencyCode): string {
  return formatAmount(sum(lines.map((line) => money(line.amount))), currency);
}

export type DocumentKind = 'renewal' | 'change' | 'cancellation' | 'reactivation';

/**
 * A billing document for invoicing: every line of one event of one subscription. `key` makes it
 * unique with (subscription, kind, period_start): a renewal has key '' (one per period), a change
 * or cancellation the id of the change, so running the same work twice cannot charge twice.
 */
export interface ChargeDraft {
  kind: DocumentKind;
  key: string;
  period_start: Date;
  due_at: Date;
  currency: CurrencyCode;
  lines: ChargeLineRecord[];
  /** cancel_invalid: invoicing credits every invoice of the subscription in full. */
  credit_all_invoices: boolean;
}
