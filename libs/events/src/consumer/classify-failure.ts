import { isAppError, StatusCode } from '@billing/errors';
import { ConnectionException } from '@mikro-orm/core';

/** Codes that mean "try again later" rather than "this event cannot be handled". */
const TRANSIENT_APP_CODES = new Set<number>([StatusCode.UNAVAILABLE, StatusCode.ABORTED, StatusCode.DEADLINE_EXCEEDED]);

/** Node socket errors: the database or another service is (briefly) unreachable. */
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN']);

/** SQLSTATEs of a database that is restarting, overloaded or dropped the connection. */
const TRANSIENT_SQL_STATE = /^(08...|57P0[123]|53300|40001|40P01)$/;

/** pg reports some lost connections only by message. */
const LOST_CONNECTION_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/**
 * Whether a failed handler should simply be retried later: infrastructure trouble or a lost race.
 * Everything else is a fault in the event or the handler, retried only a few times before the
 * message is set aside as poison.
 */
export function isTransientFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (isAppError(current)) return TRANSIENT_APP_CODES.has(current.code);
    if (current instanceof ConnectionException) return true;
    if (typeof current === 'object') {
      const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
      if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || TRANSIENT_SQL_STATE.test(code))) return true;
      if (typeof message === 'string' && LOST_CONNECTION_MESSAGE.test(message)) return true;
      current = cause;
    } else {
      return false;
    }
  }
  return false;
}
