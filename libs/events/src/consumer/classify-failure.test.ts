import { AppError, StatusCode } from '@billing/errors';
import { ConnectionException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { isTransientFailure } from './classify-failure.js';

const withCode = (code: string): Error => Object.assign(new Error(code), { code });

describe('isTransientFailure', () => {
  it.each([
    ['an unavailable dependency', new AppError({ code: StatusCode.UNAVAILABLE, reason: 'X', message: 'down' })],
    ['a lost serialization race', new AppError({ code: StatusCode.ABORTED, reason: 'CONFLICT_RETRY', message: 'x' })],
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a database shutting down', withCode('57P01')],
    ['a broken database connection', withCode('08006')],
    ['a dropped pg connection', new Error('Connection terminated unexpectedly')],
    ['a MikroORM connection error', new ConnectionException(new Error('connect ECONNREFUSED'))],
    ['a wrapped network error', new Error('call failed', { cause: withCode('ECONNRESET') })],
  ])('retries %s', (_, error) => {
    expect(isTransientFailure(error)).toBe(true);
  });

  it.each([
    ['a refused business rule', AppError.refused('PLAN_ARCHIVED', 'Archived.')],
    ['invalid data', AppError.invalidField('amount', 'Not a number.')],
    ['a programming error', new TypeError('x is undefined')],
    ['a constraint violation', withCode('23505')],
    ['a thrown string', 'boom'],
  ])('does not treat %s as transient', (_, error) => {
    expect(isTransientFailure(error)).toBe(false);
  });
});
