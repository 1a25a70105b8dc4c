import { type CurrencyCode, type Decimal, MoneyDecimal, money } from '@billing/money';
import { toBaseMrr } from './base-mrr.js';

/** A subscription's contributions to total-mrr, in the base currency (0 where it has none). */
export interface MrrFigures {
  total_mrr: Decimal;
  future_mrr: Decimal;
  pending_mrr: Decimal;
}

/**
 * gaps.md §8 total-mrr, per subscription: active and not_renewing count in total_mrr;
 * pending_manual_renewal in pending_manual_renewal_mrr; future_mrr is the MRR once every known
 * scheduled start, change and cancellation took effect (a scheduled subscription's, the waiting
 * change's, 0 for a subscription set to end). `mrr` is the pricing in force, `scheduledMrr` the
 * pricing after the waiting change (null: none); both exact in the subscription's currency.
 */
export function mrrFigures(
  status: string,
  mrr: string,
  scheduledMrr: string | null,
  rate: Decimal | null,
  base: CurrencyCode,
): MrrFigures {
  const zero = new MoneyDecimal(0);
  const inBase = (exact: string) => toBaseMrr(money(exact), rate, base) ?? zero;
  const committed = inBase(scheduledMrr ?? mrr);
  switch (status) {
    case 'active':
      return { total_mrr: inBase(mrr), future_mrr: committed, pending_mrr: zero };
    case 'not_renewing':
      return { total_mrr: inBase(mrr), future_mrr: zero, pending_mrr: zero };
    case 'scheduled':
      return { total_mrr: zero, future_mrr: committed, pending_mrr: zero };
    case 'pending_manual_renewal':
      return { total_mrr: zero, future_mrr: zero, pending_mrr: inBase(mrr) };
    default:
      return { total_mrr: zero, future_mrr: zero, pending_mrr: zero };
  }
}
