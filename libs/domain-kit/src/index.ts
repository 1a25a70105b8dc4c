export { applyWrite, type WritableShape, type Write, type WriteMode } from './apply-write.js';
export {
  DELIVERY_ATTEMPT_TIMEOUT_MS,
  DELIVERY_RETRY_DELAYS_MS,
  isAcknowledged,
  type RetryAfterFailure,
  retryAfterFailure,
} from './delivery-retry.js';
export { type PageSpec, pageSpec, resolveOrdering } from './list-page.js';
export { effectivePaymentTerms, takesOrganizationPaymentTerms } from './payment-terms.js';
export { textLength } from './text-length.js';
export { canonicalUuid, canonicalUuidOrText, isUuid } from './uuid.js';
