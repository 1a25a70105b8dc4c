import { type CurrencyCode, type Decimal, type ExchangeRate, rateOn } from '@billing/money';
import { formatLocalDate, localDateOf } from './local-time.js';

/** What the subscriptions service knows of an organization's money settings (from accounts' events). */
export interface OrganizationMoney {
  base_currency: CurrencyCode;
  time_zone: string;
  exchange_rates: ExchangeRate[];
}

/** How a subscription's MRR is shown in the base currency: at `rate` (null: no rate for its currency). */
export interface BaseConversion {
  currency: CurrencyCode;
  rate: Decimal | null;
}

/**
 * gaps.md §8: MRR in the organization's base currency at the rate of the subscription's latest
 * renewal, held for the whole period: the rate in force on the day (organization's time zone) of
 * its latest start, reactivation or renewal (`heldSince`). Null while the organization's settings
 * have not reached the service (the figures stay in the subscription's currency meanwhile).
 */
export function baseConversion(
  organization: OrganizationMoney | null,
  currency: string,
  heldSince: Date,
): BaseConversion | null {
  if (!organization) return null;
  const day = formatLocalDate(localDateOf(heldSince, organization.time_zone));
  return {
    currency: organization.base_currency,
    rate: rateOn(organization.exchange_rates, currency, organization.base_currency, day),
  };
}
