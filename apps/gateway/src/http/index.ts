// The gateway's REST framework. Business routes import from here only.

export { endOfLocalDay, isValidTimeZone, startOfLocalDay } from '@billing/clock';
export type { Authenticator } from './auth/authenticator.js';
export { CachingAuthenticator } from './auth/caching-authenticator.js';
export type { Principal } from './auth/principal.js';
export { tokenFromAuthorization } from './auth/token-header.js';
export { createHttpApp, type HttpAppOptions } from './create-http-app.js';
export {
  detailError,
  HttpError,
  invalidPage,
  isHttpError,
  notFound,
  permissionDenied,
  validationFailed,
} from './errors/http-error.js';
export { type ErrorMappingOptions, toHttpError } from './errors/to-http-error.js';
export { FILTER_MESSAGES, filterField } from './filters/filter-fields.js';
export {
  type InstantRange,
  instantRange,
  type OrgTzLookup,
  orgTzDateFilters,
  type RangeLookup,
  rangeFilters,
} from './filters/range-filters.js';
export type { HttpLogger } from './http-logger.js';
export { DEFAULT_BODY_LIMIT_BYTES } from './json-body.js';
export { listen, type RunningHttpServer } from './listen.js';
export { buildPageEnvelope, type ListPage, type PageEnvelope } from './pagination/page-envelope.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type PageRequest, parsePageRequest } from './pagination/page-request.js';
export { absoluteRequestUrl } from './pagination/request-url.js';
export { hidePathInLog } from './request-state.js';
export {
  ALWAYS_KEPT_FIELDS,
  fieldsHeaderKeeps,
  parseFieldsHeader,
  projectFields,
} from './response/fields-header.js';
export { HttpResponse } from './response/http-response.js';
export { defineListRoute, defineRoute } from './route/define-route.js';
export type {
  HttpMethod,
  ListRouteDefinition,
  ListRouteInput,
  RefusalBodyKey,
  Route,
  RouteDefinition,
  RouteInput,
  SuccessStatus,
} from './route/route-types.js';
export {
  COLLECTION_METHODS,
  COUNTRY_CODES,
  type CollectionMethod,
  type CountryCode,
  CURRENCY_CODES,
  type CurrencyCode,
  PAYMENT_GATEWAYS,
  type PaymentGateway,
} from './validation/choice-sets.js';
export { type FieldError, NON_FIELD_ERRORS, renderDrfErrors } from './validation/drf-error-body.js';
export { DRF_MESSAGES, drfErrorMap, drfMessage } from './validation/drf-messages.js';
export {
  type DecimalFieldOptions,
  field,
  type IntegerFieldOptions,
  type StringFieldOptions,
} from './validation/fields.js';
export {
  isInstantInRange,
  parseIsoDate,
  parseIsoDateTime,
  parseIsoDateTimeInRange,
} from './validation/iso-date-time.js';
export { AFTER_FIELD_CHECKS, parseBodyOrThrow, parseOrThrow } from './validation/validate.js';
