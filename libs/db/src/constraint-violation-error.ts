import { AppError, type AppErrorOptions } from '@billing/errors';

/**
 * An AppError raised by a unique or foreign-key constraint. `constraint` (e.g.
 * `account_code_unique`) stays on the server: a use case matches it to name the offending field in
 * its own words, and the client never sees table or constraint names.
 */
export class ConstraintViolationError extends AppError {
  readonly constraint: string | undefined;
  readonly table: string | undefined;

  constructor(options: AppErrorOptions & { constraint: string | undefined; table: string | undefined }) {
    super(options);
    this.name = 'ConstraintViolationError';
    this.constraint = options.constraint;
    this.table = options.table;
  }
}

export function isConstraintViolation(error: unknown, constraint?: string): error is ConstraintViolationError {
  return error instanceof ConstraintViolationError && (constraint === undefined || error.constraint === constraint);
}
