export { createLogger, type Logger } from './logger.js';
export { acceptOrCreateRequestId, currentContext, type RequestContext, runWithContext } from './request-context.js';
