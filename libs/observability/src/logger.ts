import { type Logger, type LoggerOptions, pino } from 'pino';
import { currentContext } from './request-context.js';

export type { Logger } from 'pino';

/**
 * JSON logs with the current request's id (and tenant) mixed into every line, so one request can
 * be followed across the gateway, the gRPC services and event consumers.
 */
export function createLogger(service: string, level: LoggerOptions['level'] = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const context = currentContext();
      if (!context) return {};
      return {
        request_id: context.requestId,
        ...(context.organizationId ? { organization_id: context.organizationId } : {}),
      };
    },
  });
}
