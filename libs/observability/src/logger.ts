import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import { currentContext } from './request-context.js';
import { activeTraceIds } from './tracing/spans.js';

export type { Logger } from 'pino';

/**
 * JSON logs with the current request's id (and tenant) mixed into every line, so one request can
 * be followed across the gateway, the gRPC services and event consumers; with tracing on, also the
 * active span's `trace_id` and `span_id`, which find the line's place in its trace.
 */
export function createLogger(
  service: string,
  level: LoggerOptions['level'] = 'info',
  /** stdout unless given (tests read the lines). */
  destination?: DestinationStream,
): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const context = currentContext();
      const traceIds = activeTraceIds();
      if (!context) return traceIds ?? {};
      return {
        request_id: context.requestId,
        ...(context.organizationId ? { organization_id: context.organizationId } : {}),
        ...traceIds,
      };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
