export { createLogger, type Logger } from './logger.js';
export * from './metrics/index.js';
export { acceptOrCreateRequestId, currentContext, type RequestContext, runWithContext } from './request-context.js';
