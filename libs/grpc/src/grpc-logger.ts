/**
 * The part of a logger this library uses. A pino Logger from @billing/observability fits; its
 * mixin adds the current request id, which is why calls run inside runWithContext.
 */
export interface GrpcLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
