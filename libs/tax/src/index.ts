export { EU_STANDARD_VAT_RATES, EU_VAT_RATES_SOURCE, standardVatRate } from './eu-vat-rates.js';
export { formatVatRate, vatAmount } from './vat-amount.js';
export { type Buyer, type BuyerAccount, type BuyerFacts, decideBuyer } from './vat-buyer.js';
export { isValidVatNumberFormat, normalizeVatNumber, vatNumberPrefix } from './vat-number-format.js';
export {
  decideVat,
  VAT_REASON_TEXT,
  VAT_REASONS,
  type VatDecision,
  VatFactError,
  type VatFacts,
  type VatReason,
} from './vat-rule.js';
