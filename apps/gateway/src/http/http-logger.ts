/**
 * The slice of a pino logger the HTTP layer writes to. A pino Logger (createLogger from
 * @billing/observability) fits as is; tests pass a recorder.
 */
export interface HttpLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}
