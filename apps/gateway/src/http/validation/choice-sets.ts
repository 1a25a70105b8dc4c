// The contract's value sets live in @billing/reference-data, shared with the services.
export {
  COLLECTION_METHODS,
  COUNTRY_CODES,
  type CollectionMethod,
  type CountryCode,
  CURRENCY_CODES,
  type CurrencyCode,
  PAYMENT_GATEWAYS,
  type PaymentGateway,
} from '@billing/reference-data';
