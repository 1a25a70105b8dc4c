export { applyWrite, type WritableShape, type Write, type WriteMode } from './apply-write.js';
export { type PageSpec, pageSpec, resolveOrdering } from './list-page.js';
export { effectivePaymentTerms, takesOrganizationPaymentTerms } from './payment-terms.js';
export { textLength } from './text-length.js';
export { isUuid } from './uuid.js';
