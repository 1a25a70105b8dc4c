import { describe, expect, it } from 'vitest';
import { AppError, isAppError } from './app-error.js';
import { StatusCode } from './status-code.js';

describe('AppError', () => {
  it('carries code, reason, message and field violations', () => {
    const error = AppError.invalidField('legal_country', '"XX" is not a valid choice.');
    expect(isAppError(error)).toBe(true);
    expect(error.code).toBe(StatusCode.INVALID_ARGUMENT);
    expect(error.reason).toBe('VALIDATION_FAILED');
    expect(error.fieldViolations).toEqual([{ field: 'legal_country', description: '"XX" is not a valid choice.' }]);
  });

  it('has a not-found shape that never says whose object it was', () => {
    const error = AppError.notFound();
    expect([error.code, error.reason, error.message]).toEqual([StatusCode.NOT_FOUND, 'NOT_FOUND', 'Not found.']);
  });
});
