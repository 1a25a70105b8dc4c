import { AppError, isAppError, StatusCode } from '@billing/errors';
import { OptimisticLockError } from '@mikro-orm/core';
import { ConstraintViolationError } from './constraint-violation-error.js';

/** The fields Postgres (via pg, kept by MikroORM's DriverException) reports with an error. */
interface PostgresErrorFields {
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
}

/** Reason of the ABORTED error `inTransaction` retries: the transaction lost a race, try again. */
export const CONFLICT_RETRY = 'CONFLICT_RETRY';

/**
 * Translates a database failure into the platform's AppError, once, at the edge of the data layer:
 * unique violation → ALREADY_EXISTS, foreign key → FAILED_PRECONDITION, serialization failure or
 * deadlock → ABORTED (retryable), bad text/number → INVALID_ARGUMENT. Anything else (including
 * AppErrors a use case threw) is returned unchanged.
 */
export function mapDbError(error: unknown): unknown {
  if (isAppError(error)) return error;
  if (error instanceof OptimisticLockError) {
    return new AppError({
      code: StatusCode.ABORTED,
      reason: CONFLICT_RETRY,
      message: 'Concurrent update.',
      cause: error,
    });
  }
  const fields = postgresFields(error);
  const sqlState = typeof fields?.code === 'string' ? fields.code : undefined;
  const constraint = typeof fields?.constraint === 'string' ? fields.constraint : undefined;
  const table = typeof fields?.table === 'string' ? fields.table : undefined;
  switch (sqlState) {
    case '23505':
      return new ConstraintViolationError({
        code: StatusCode.ALREADY_EXISTS,
        reason: 'ALREADY_EXISTS',
        message: 'Already exists.',
        constraint,
        table,
        cause: error,
      });
    case '23503':
      return new ConstraintViolationError({
        code: StatusCode.FAILED_PRECONDITION,
        reason: 'REFERENCED',
        message: 'A related object is missing or still in use.',
        constraint,
        table,
        cause: error,
      });
    case '40001':
    case '40P01':
      return new AppError({
        code: StatusCode.ABORTED,
        reason: CONFLICT_RETRY,
        message: 'Concurrent update.',
        cause: error,
      });
    case '22P02':
    case '22003':
      return new AppError({
        code: StatusCode.INVALID_ARGUMENT,
        reason: 'INVALID_VALUE',
        message: 'A value is malformed or out of range.',
        cause: error,
      });
    default:
      return error;
  }
}

/** pg errors carry the SQLSTATE directly; a wrapper may keep it on its `cause`. */
function postgresFields(error: unknown): PostgresErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth++) {
    const candidate = current as PostgresErrorFields & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate;
    current = candidate.cause;
  }
  return undefined;
}
