/**
 * The part of a logger this library uses. A pino Logger from @billing/observability fits; its
 * mixin adds the current request id, which is why calls run inside runWithContext.
 */
export interface GrpcLogger {
  /**
   * pino's: false when info lines are dropped anyway (LOG_LEVEL=warn), so the per-call line is not
   * even built. Loggers without it get every line.
   */
  isLevelEnabled?(level: 'info'): boolean;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
