export { applyWrite, type WritableShape, type Write, type WriteMode } from './apply-write.js';
export { type PageSpec, pageSpec, resolveOrdering } from './list-page.js';
export { isUuid } from './uuid.js';
