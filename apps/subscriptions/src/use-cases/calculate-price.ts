import { AppError } from '@billing/errors';
import { type CurrencyCode, currencyDecimals, type Decimal, formatAmount, roundToMinorUnit } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { orgNow } from '@billing/runtime';
import { decideVat, formatVatRate, type VatDecision, VatFactError, type VatReason, vatAmount } from '@billing/tax';
import { findPlan, findPlanTerms } from '../db/catalog-store.js';
import { loadContractViews } from '../db/contract-store.js';
import { ContractEntity } from '../db/entities/contract.entity.js';
import { applicableContract } from '../domain/contracts.js';
import { formatLocalDate, localDateOf } from '../domain/local-time.js';
import { MAX_QUANTITY, type PriceBreakdown, priceLine } from '../domain/pricing.js';
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

/** The answer of POST /api/v1/plans/calculate/ (gaps.md §5): decimal texts, nothing stored. */
export interface PriceQuote {
  currency: string;
  unit_price: string;
  discount: string;
  quantity: number;
  subtotal: string;
  vat_rate: string;
  vat: string;
  total: string;
  reverse_charge: boolean;
  vat_reason: VatReason;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  if (!UUID.test(input.terms)) throw AppError.invalidField('terms', 'Must be a valid UUID.');
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 0 || input.quantity > MAX_QUANTITY) {
    throw AppError.invalidField('quantity', `Ensure this value is between 0 and ${MAX_QUANTITY}.`);
  }
  if (input.account !== null && !UUID.test(input.account)) {
    throw AppError.invalidField('account', 'Must be a valid UUID.');
  }
  const em = deps.orm.em.fork();
  const terms = await findPlanTerms(em, organizationId, input.terms);
  if (!terms) throw AppError.invalidField('terms', `Invalid pk "${input.terms}" - object does not exist.`);
  const plan = await findPlan(em, organizationId, terms.plan_id);
  if (!plan) throw new Error(`Plan terms ${terms.id} name a plan ${terms.plan_id} that does not exist`);

  let contract = null;
  if (input.account !== null) {
    const rows = await em.find(
      ContractEntity,
      { organization_id: organizationId, account_id: input.account, plan_terms_id: terms.id },
      { orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
    );
    // A caller that names no zone (only the gateway calls, and it always does) gets UTC days.
    const today = formatLocalDate(localDateOf(orgNow(deps.clock, context), context.organizationTimeZone ?? 'UTC'));
    contract = applicableContract(await loadContractViews(em, organizationId, rows), terms.id, today);
  }

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

/**
 * The quote a person can check by hand (pure):
 * - unit_price: the terms' exact price, with at least the currency's decimals;
 * - discount: (unit price − discounted unit price) × quantity, rounded;
 * - subtotal: discounted unit price × quantity, rounded (the priced line of pricing.ts);
 * - vat: subtotal × vat_rate / 100, rounded; total: subtotal + vat.
 * Rounding is to the currency's minor unit, half-up, each amount once.
 */
export function quotePrice(line: PriceBreakdown, vat: VatDecision): PriceQuote {
  const { currency } = line;
  const discount = roundToMinorUnit(line.unit_price.minus(line.discounted_unit_price).times(line.quantity), currency);
  const vatValue = vatAmount(line.subtotal, vat.rate, currency);
  return {
    currency,
    unit_price: exactPrice(line.unit_price, currency),
    discount: formatAmount(discount, currency),
    quantity: line.quantity,
    subtotal: formatAmount(line.subtotal, currency),
    vat_rate: formatVatRate(vat.rate),
    vat: formatAmount(vatValue, currency),
    total: formatAmount(line.subtotal.plus(vatValue), currency),
    reverse_charge: vat.reverse_charge,
    vat_reason: vat.reason,
  };
}

/** "100.00", "9.995", "1500" (ISK): never rounded, so unit price × quantity can be checked. */
function exactPrice(price: Decimal, currency: CurrencyCode): string {
  return price.toFixed(Math.max(currencyDecimals(currency), price.decimalPlaces()));
}
