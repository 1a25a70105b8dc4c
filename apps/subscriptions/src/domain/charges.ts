import { type CurrencyCode, type Decimal, money } from '@billing/money';
import { addDays, formatLocalDate, localDateOf, parseLocalDate } from './local-time.js';
import {
  daysUsedAndRemaining,
  type Interval,
  type PeriodBounds,
  periodBounds,
  periodContaining,
  type RenewalBase,
  shiftLocalDays,
} from './periods.js';
import { type ContractPricing, type PriceBreakdown, priceLine } from './pricing.js';
import { proratedLineAmount } from './proration.js';

/** The plan terms fields that decide charges. */
export interface ChargeTerms {
  price: Decimal | string;
  currency: CurrencyCode;
  interval: Interval;
  backwards_charging: boolean;
}

/** What a subscription pays: its terms, quantity, override and the contract tiers fixed for it. */
export interface Pricing {
  terms: ChargeTerms;
  quantity: number;
  override_price?: Decimal | string | null;
  contract?: ContractPricing | null;
}

export type ChargeKind =
  /** A whole period: forward at its start, backwards at its end (from the last change, if any). */
  | 'renewal'
  /** Immediate change, forward: the unused remainder at the old price (negative). */
  | 'change_credit'
  /** Immediate change, forward: the remainder (or a new whole period) at the new price. */
  | 'change_charge'
  /** Immediate change, backwards: the part used at the old price, invoiced at the next renewal. */
  | 'change_elapsed'
  /** Cancellation, forward: the unused remainder (today) or the whole period (full_refund), negative. */
  | 'cancel_credit'
  /** Cancellation 'today', backwards: the part used, invoiced now. */
  | 'cancel_elapsed';

/** One charge: what it is, which days it covers, how it was priced and what it amounts to. */
export interface ChargeLine {
  kind: ChargeKind;
  currency: CurrencyCode;
  /** The billing period the line belongs to (its n counts from the base it was computed with). */
  period: { n: number; dateFrom: string; dateTo: string; days: number };
  /** The local days this line covers, inclusive ('YYYY-MM-DD'); the whole period for a renewal. */
  date_from: string;
  date_to: string;
  /** Days covered and the period's days: the proration fraction (equal for a whole period). */
  days: number;
  period_days: number;
  quantity: number;
  price: PriceBreakdown;
  /** Rounded to the currency's minor unit, half-up; negative for credits. */
  amount: Decimal;
  /** When the line is to be invoiced. */
  due_at: Date;
}

export class ChargeRuleError extends Error {
  constructor(
    readonly reason: 'CURRENCY_CHANGE' | 'NOT_STARTED',
    message: string,
  ) {
    super(message);
    this.name = 'ChargeRuleError';
  }
}

export function priceOf(pricing: Pricing): PriceBreakdown {
  return priceLine({
    terms_price: pricing.terms.price,
    currency: pricing.terms.currency,
    quantity: pricing.quantity,
    override_price: pricing.override_price ?? null,
    contract: pricing.contract ?? null,
  });
}

function sameInterval(a: Interval, b: Interval): boolean {
  return a.type === b.type && a.count === b.count;
}

/** A line for `days` of `period` starting on local day `dateFrom`; `sign` -1 makes it a credit. */
function line(
  kind: ChargeKind,
  pricing: Pricing,
  period: PeriodBounds,
  dateFrom: string,
  days: number,
  sign: 1 | -1,
  dueAt: Date,
): ChargeLine {
  const price = priceOf(pricing);
  const amount = proratedLineAmount(price, days, period.days);
  return {
    kind,
    currency: price.currency,
    period: { n: period.n, dateFrom: period.dateFrom, dateTo: period.dateTo, days: period.days },
    date_from: dateFrom,
    date_to: formatLocalDate(addDays(parseLocalDate(dateFrom), days - 1)),
    days,
    period_days: period.days,
    quantity: price.quantity,
    price,
    amount: sign === -1 && !amount.isZero() ? amount.negated() : amount,
    due_at: dueAt,
  };
}

/** When a period's charge is invoiced: forward at start (minus pre_renewal_days_offset local days), backwards at its end. */
export function periodChargeDueAt(
  terms: Pick<ChargeTerms, 'backwards_charging'>,
  period: PeriodBounds,
  timeZone: string,
  preRenewalDaysOffset = 0,
): Date {
  if (terms.backwards_charging) return period.end;
  return shiftLocalDays(period.start, preRenewalDaysOffset, timeZone);
}

/**
 * The charge of a period ('renewal'). Forward: the whole period, due at its start (or
 * pre_renewal_days_offset days before). Backwards: due at the period's end, for the days from
 * `since` (the moment of the last change inside the period, whose earlier days were charged as
 * 'change_elapsed') or the whole period. Nothing is charged at the start of a backwards period.
 */
export function renewalCharge(
  pricing: Pricing,
  period: PeriodBounds,
  timeZone: string,
  options: { preRenewalDaysOffset?: number; since?: Date | null } = {},
): ChargeLine {
  const dueAt = periodChargeDueAt(pricing.terms, period, timeZone, options.preRenewalDaysOffset ?? 0);
  if (pricing.terms.backwards_charging && options.since) {
    const { used, remaining } = daysUsedAndRemaining(period, options.since, timeZone);
    const from = formatLocalDate(addDays(parseLocalDate(period.dateFrom), used));
    return line('renewal', pricing, period, from, remaining, 1, dueAt);
  }
  return line('renewal', pricing, period, period.dateFrom, period.days, 1, dueAt);
}

export interface ChangeInput {
  from: Pricing;
  to: Pricing;
  base: RenewalBase;
  /** The change moment (now for immediate, prorate_date for at_specified_time). */
  at: Date;
  early_renewal?: boolean;
  /** Backwards terms: the last change inside the current period (its earlier days were already charged). */
  since?: Date | null;
}

export interface ChangeResult {
  lines: ChargeLine[];
  /** The base of the renewals from now on (unchanged when the period dates are kept). */
  base: RenewalBase;
  /** The period the subscription is in after the change. */
  period: PeriodBounds;
  /** True when a new period starts at the change moment. */
  newPeriod: boolean;
}

/**
 * gaps §6, immediate (and at_specified_time at its moment) change.
 * Forward terms: credit the unused remainder at the old price, charge it at the new price, both
 * due now. Same interval: the period dates are kept. Another interval or early_renewal: a new
 * period starts at the change moment and is charged whole at the new price.
 * Backwards terms (same interval): nothing is due now; the days used at the old price become a
 * 'change_elapsed' line due at the period's end, where renewalCharge(..., { since: at }) charges
 * the rest at the new price. Switching between forward and backwards terms starts a new period.
 * Another currency: ChargeRuleError CURRENCY_CHANGE.
 */
export function immediateChange(input: ChangeInput): ChangeResult {
  const { from, to, base, at } = input;
  if (from.terms.currency !== to.terms.currency) {
    throw new ChargeRuleError('CURRENCY_CHANGE', 'The currency of a subscription cannot be changed.');
  }
  const period = periodContaining(base, from.terms.interval, at);
  if (period.n < 0) throw new ChargeRuleError('NOT_STARTED', 'The subscription has not started yet.');
  const { used, remaining } = daysUsedAndRemaining(period, at, base.timeZone);
  const changeDay = formatLocalDate(localDateOf(at, base.timeZone));
  const keepsPeriod =
    !input.early_renewal &&
    sameInterval(from.terms.interval, to.terms.interval) &&
    from.terms.backwards_charging === to.terms.backwards_charging;

  const lines: ChargeLine[] = [];
  if (from.terms.backwards_charging) {
    const sinceUsed = input.since ? daysUsedAndRemaining(period, input.since, base.timeZone).used : 0;
    if (used > sinceUsed) {
      const sinceDay = formatLocalDate(addDays(parseLocalDate(period.dateFrom), sinceUsed));
      // Due at the period's end; re-timed below when a new period starts.
      lines.push(line('change_elapsed', from, period, sinceDay, used - sinceUsed, 1, period.end));
    }
  } else if (remaining > 0) {
    lines.push(line('change_credit', from, period, changeDay, remaining, -1, at));
  }

  if (keepsPeriod) {
    if (!to.terms.backwards_charging && remaining > 0) {
      lines.push(line('change_charge', to, period, changeDay, remaining, 1, at));
    }
    return { lines, base, period, newPeriod: false };
  }

  const newBase: RenewalBase = { instant: at, timeZone: base.timeZone };
  const newPeriod = periodBounds(newBase, to.terms.interval, 0);
  // The old backwards terms' used part goes out with the next document: the new period's charge,
  // which is now for forward new terms and at the new period's end for backwards ones.
  for (const l of lines) if (l.kind === 'change_elapsed') l.due_at = to.terms.backwards_charging ? newPeriod.end : at;
  if (!to.terms.backwards_charging) {
    lines.push(line('change_charge', to, newPeriod, newPeriod.dateFrom, newPeriod.days, 1, at));
  }
  return { lines, base: newBase, period: newPeriod, newPeriod: true };
}

export type ChargedCancellation = 'full_refund' | 'today';

/**
 * gaps §6 cancellation lines at the moment `at` (at_specified_time is 'today' at its moment;
 * at_renewal makes no line; cancel_invalid credits the invoices themselves, in invoicing).
 * - full_refund, forward: the whole current period credited. The credit is `charged` when given
 *   (what was actually invoiced for the period, e.g. after mid-period changes), else the period
 *   at the current pricing. Backwards: nothing (the period is never invoiced).
 * - today, forward: the unused remainder credited at the current pricing. Backwards: the days used
 *   (since the last change in the period) invoiced now.
 */
export function cancellationCharges(
  pricing: Pricing,
  base: RenewalBase,
  at: Date,
  type: ChargedCancellation,
  options: { charged?: Decimal | string | null; since?: Date | null } = {},
): ChargeLine[] {
  const period = periodContaining(base, pricing.terms.interval, at);
  if (period.n < 0) throw new ChargeRuleError('NOT_STARTED', 'The subscription has not started yet.');
  const { used, remaining } = daysUsedAndRemaining(period, at, base.timeZone);
  if (pricing.terms.backwards_charging) {
    if (type === 'full_refund') return [];
    const sinceUsed = options.since ? daysUsedAndRemaining(period, options.since, base.timeZone).used : 0;
    if (used <= sinceUsed) return [];
    const sinceDay = formatLocalDate(addDays(parseLocalDate(period.dateFrom), sinceUsed));
    return [line('cancel_elapsed', pricing, period, sinceDay, used - sinceUsed, 1, at)];
  }
  if (type === 'full_refund') {
    const credit = line('cancel_credit', pricing, period, period.dateFrom, period.days, -1, at);
    if (options.charged !== undefined && options.charged !== null)
      credit.amount = money(options.charged).abs().negated();
    return [credit];
  }
  if (remaining === 0) return [];
  const changeDay = formatLocalDate(localDateOf(at, base.timeZone));
  return [line('cancel_credit', pricing, period, changeDay, remaining, -1, at)];
}
