export { type ExchangeRate, rateOn } from './exchange-rates.js';
export {
  type CurrencyCode,
  currencyDecimals,
  Decimal,
  formatAmount,
  formatExact,
  InvalidAmountError,
  isDecimalString,
  MoneyDecimal,
  money,
  parseAmount,
  roundToMinorUnit,
  sum,
} from './money.js';
