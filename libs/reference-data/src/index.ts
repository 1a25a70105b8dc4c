export * from './choices.js';
export { COUNTRY_CODES, type CountryCode, EU_COUNTRY_CODES, isCountryCode, isEuCountry } from './countries.js';
export { CURRENCY_CODES, CURRENCY_MINOR_UNITS, type CurrencyCode, isCurrencyCode, minorUnits } from './currencies.js';
export {
  EINVOICE_BUILTIN_FIELDS,
  EINVOICE_FORMATS,
  EINVOICE_SOURCE_TYPES,
  EINVOICE_TARGET_FIELDS,
  type EinvoiceBuiltinField,
  type EinvoiceFormat,
  type EinvoiceTargetField,
  isEinvoiceTargetField,
} from './einvoice-fields.js';
export { DRAFT_LINE_EVENT_TYPES, type DraftLineEventType } from './event-types.js';
export { isTimeZone } from './time-zones.js';
