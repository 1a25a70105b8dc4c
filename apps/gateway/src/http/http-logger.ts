/**
 * The slice of a pino logger the HTTP layer writes to. A pino Logger (createLogger from
 * @billing/observability) fits as is; tests pass a recorder.
 */
export interface HttpLogger {
  /** pino's: false when info lines are dropped anyway, so the access line is not even built. */
  isLevelEnabled?(level: 'info'): boolean;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}
