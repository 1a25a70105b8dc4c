import { AppError, StatusCode } from '@billing/errors';
import { describe, expect, it } from 'vitest';
import { ConstraintViolationError, isConstraintViolation } from './constraint-violation-error.js';
import { mapDbError } from './map-db-error.js';

function postgresError(code: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`pg ${code}`), { code, ...extra });
}

describe('mapDbError', () => {
  it.each([
    ['40001', StatusCode.ABORTED, 'CONFLICT_RETRY'],
    ['40P01', StatusCode.ABORTED, 'CONFLICT_RETRY'],
    ['22P02', StatusCode.INVALID_ARGUMENT, 'INVALID_VALUE'],
    ['22003', StatusCode.INVALID_ARGUMENT, 'INVALID_VALUE'],
  ])('maps SQLSTATE %s to %s %s', (sqlState, code, reason) => {
    const cause = postgresError(sqlState);
    expect(mapDbError(cause)).toMatchObject({ code, reason, cause });
  });

  it('keeps the constraint of a unique violation for the caller to name the field', () => {
    const mapped = mapDbError(postgresError('23505', { constraint: 'account_code_unique', table: 'account' }));
    expect(isConstraintViolation(mapped, 'account_code_unique')).toBe(true);
    expect(isConstraintViolation(mapped, 'other_unique')).toBe(false);
    expect(mapped).toMatchObject({ code: StatusCode.ALREADY_EXISTS, reason: 'ALREADY_EXISTS', table: 'account' });
  });

  it('finds the SQLSTATE on a wrapped cause', () => {
    const wrapped = new Error('query failed', { cause: postgresError('23503', { constraint: 'part_widget_fk' }) });
    const mapped = mapDbError(wrapped);
    expect(mapped).toBeInstanceOf(ConstraintViolationError);
    expect(mapped).toMatchObject({ reason: 'REFERENCED', constraint: 'part_widget_fk' });
  });

  it('returns AppErrors and unknown errors unchanged', () => {
    const appError = AppError.notFound();
    const unknown = new Error('socket hang up');
    const otherSqlState = postgresError('42P01');
    expect(mapDbError(appError)).toBe(appError);
    expect(mapDbError(unknown)).toBe(unknown);
    expect(mapDbError(otherSqlState)).toBe(otherSqlState);
    expect(mapDbError('text')).toBe('text');
  });
});
