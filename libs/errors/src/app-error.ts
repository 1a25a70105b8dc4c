import { StatusCode } from './status-code.js';

/** One invalid input: `field` is a dotted path ("legal_country", "tiers.0.discount"). */
export interface FieldViolation {
  field: string;
  description: string;
}

export interface AppErrorOptions {
  code: StatusCode;
  /** Stable UPPER_SNAKE identifier clients and the gateway can switch on. */
  reason: string;
  message: string;
  fieldViolations?: FieldViolation[];
  cause?: unknown;
}

/**
 * The single error type of the platform. Services throw it, the gRPC layer carries it in the
 * status details, and the gateway maps it once to the REST contract's bodies.
 */
export class AppError extends Error {
  readonly code: StatusCode;
  readonly reason: string;
  readonly fieldViolations: FieldViolation[];

  constructor(options: AppErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = options.code;
    this.reason = options.reason;
    this.fieldViolations = options.fieldViolations ?? [];
  }

  static invalid(fieldViolations: FieldViolation[], message = 'Invalid input.'): AppError {
    return new AppError({ code: StatusCode.INVALID_ARGUMENT, reason: 'VALIDATION_FAILED', message, fieldViolations });
  }

  static invalidField(field: string, description: string): AppError {
    return AppError.invalid([{ field, description }]);
  }

  static notFound(message = 'Not found.'): AppError {
    return new AppError({ code: StatusCode.NOT_FOUND, reason: 'NOT_FOUND', message });
  }

  /** A business rule refused the request (REST: 400 `{"detail": ...}`). */
  static refused(reason: string, message: string): AppError {
    return new AppError({ code: StatusCode.FAILED_PRECONDITION, reason, message });
  }

  static unauthenticated(message = 'Invalid token.'): AppError {
    return new AppError({ code: StatusCode.UNAUTHENTICATED, reason: 'INVALID_TOKEN', message });
  }

  static internal(message = 'Internal server error.', cause?: unknown): AppError {
    return new AppError({ code: StatusCode.INTERNAL, reason: 'INTERNAL', message, cause });
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
