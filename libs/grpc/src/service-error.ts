import { AppError } from '@billing/errors';
import type { ServiceError } from '@grpc/grpc-js';
import { statusCodeName, toStatusCode } from './status-code-names.js';
import { decodeStatusDetails, STATUS_DETAILS_KEY, type StatusDetails } from './status-details.js';

/**
 * Turns a failed call back into the AppError the server threw: the same code, reason, message
 * and field violations. A status without our details (deadline, unreachable server, a foreign
 * server) becomes an AppError whose reason is the code's name, e.g. 'UNAVAILABLE'.
 */
export function serviceErrorToAppError(error: ServiceError): AppError {
  const code = toStatusCode(error.code);
  const details = readStatusDetails(error);
  if (details) {
    return new AppError({
      code,
      reason: details.reason,
      message: details.message || error.details,
      fieldViolations: details.fieldViolations,
      cause: error,
    });
  }
  return new AppError({
    code,
    reason: statusCodeName(code),
    message: error.details || statusCodeName(code),
    cause: error,
  });
}

function readStatusDetails(error: ServiceError): StatusDetails | undefined {
  const [bytes] = error.metadata?.get(STATUS_DETAILS_KEY) ?? [];
  return Buffer.isBuffer(bytes) ? decodeStatusDetails(bytes) : undefined;
}
