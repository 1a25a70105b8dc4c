import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { CurrencyCode } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { orgNow } from '@billing/runtime';
import { decideVat, type VatDecision, VatFactError } from '@billing/tax';
import { findPlan, findPlanTerms } from '../db/catalog-store.js';
import { contractResolver, termsSnapshot } from '../db/subscription-catalog.js';
import { type PriceQuote, quotePrice } from '../domain/price-quote.js';
import { MAX_QUANTITY, priceLine } from '../domain/pricing.js';
import { requireOrganization } from './change-transaction.js';
import type { SubscriptionsDeps } from './deps.js';

export interface CalculatePriceInput {
  /** The plan terms' uuid. */
  terms: string;
  quantity: number;
  /** The account's uuid (resolved by the gateway from its code); null: no contract applies. */
  account: string | null;
  /** The buyer's VAT facts (gaps.md §7), read by the gateway from the accounts service. */
  buyer: { country: string; vat_number: string };
  /** The organization's country. */
  seller_country: string;
}

/**
 * Prices `quantity` of the terms for the buyer: the terms' price, the tiers of the account's
 * contract on these terms that applies today (the organization's local day, as at a renewal),
 * then the VAT rule. Read only.
 */
export async function calculatePrice(
  deps: SubscriptionsDeps,
  context: RequestContext,
  input: CalculatePriceInput,
): Promise<PriceQuote> {
  const organizationId = requireOrganization(context);
  if (!isUuid(input.terms)) throw AppError.invalidField('terms', 'Must be a valid UUID.');
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 0 || input.quantity > MAX_QUANTITY) {
    throw AppError.invalidField('quantity', `Ensure this value is between 0 and ${MAX_QUANTITY}.`);
  }
  if (input.account !== null && !isUuid(input.account)) {
    throw AppError.invalidField('account', 'Must be a valid UUID.');
  }
  const em = deps.orm.em.fork();
  const terms = await findPlanTerms(em, organizationId, input.terms);
  if (!terms) throw AppError.invalidField('terms', `Invalid pk "${input.terms}" - object does not exist.`);
  const plan = await findPlan(em, organizationId, terms.plan_id);
  if (!plan) throw new Error(`Plan terms ${terms.id} name a plan ${terms.plan_id} that does not exist`);

  // The same contract a renewal today would fix into a subscription on these terms.
  // A caller that names no zone (only the gateway calls, and it always does) gets UTC days.
  const contract =
    input.account === null
      ? null
      : (await contractResolver(em, organizationId, input.account, context.organizationTimeZone ?? 'UTC')).contractFor(
          termsSnapshot(terms),
          orgNow(deps.clock, context),
        );

  const line = priceLine({
    terms_price: terms.price,
    currency: terms.currency as CurrencyCode,
    quantity: input.quantity,
    contract,
  });
  return quotePrice(line, vatFor(input, plan.collect_vat));
}

function vatFor(input: CalculatePriceInput, collectVat: boolean): VatDecision {
  try {
    return decideVat({
      seller_country: input.seller_country,
      buyer_country: input.buyer.country,
      buyer_vat_number: input.buyer.vat_number,
      collect_vat: collectVat,
    });
  } catch (error) {
    if (error instanceof VatFactError) {
      throw AppError.invalidField(error.field === 'seller_country' ? 'seller_country' : 'buyer.country', error.message);
    }
    throw error;
  }
}
