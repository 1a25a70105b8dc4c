import { isAppError, StatusCode } from '@billing/errors';
import { renderDrfErrors } from '../validation/drf-error-body.js';
import {
  detailError,
  HttpError,
  internalServerError,
  invalidToken,
  isHttpError,
  notFound,
  permissionDenied,
  serviceUnavailable,
  validationFailed,
} from './http-error.js';

export interface ErrorMappingOptions {
  requestId: string;
  /** Body key of business-rule refusals on this route (`detail`, or `error` for invoice actions). */
  refusalBodyKey: 'detail' | 'error';
  /** The request body, so field violations on list items render as DRF lists. */
  input: unknown;
}

/**
 * The one place where errors become REST answers (spec/gaps.md §1). AppErrors come from the
 * services over gRPC; HttpErrors from the gateway itself; anything else is a fault: 500 with the
 * request id, and the cause is never echoed.
 */
export function toHttpError(error: unknown, options: ErrorMappingOptions): HttpError {
  if (isHttpError(error)) return error;
  if (isAppError(error)) {
    const refusal = () => new HttpError(400, { [options.refusalBodyKey]: error.message });
    const fieldErrors = () =>
      validationFailed(
        renderDrfErrors(
          error.fieldViolations.map((violation) => ({
            path: violation.field === '' ? [] : violation.field.split('.'),
            message: violation.description,
          })),
          options.input,
        ),
      );
    switch (error.code) {
      case StatusCode.INVALID_ARGUMENT:
      case StatusCode.ALREADY_EXISTS:
        return error.fieldViolations.length > 0 ? fieldErrors() : refusal();
      case StatusCode.FAILED_PRECONDITION:
      case StatusCode.OUT_OF_RANGE:
        return refusal();
      case StatusCode.NOT_FOUND:
        return notFound();
      case StatusCode.UNAUTHENTICATED:
        return invalidToken();
      case StatusCode.PERMISSION_DENIED:
        return permissionDenied();
      case StatusCode.RESOURCE_EXHAUSTED:
        return detailError(429, error.message);
      case StatusCode.ABORTED:
        // A concurrent change won; retrying may succeed. DRF has no 409, but it is what HTTP has.
        return detailError(409, error.message);
      case StatusCode.UNAVAILABLE:
      case StatusCode.DEADLINE_EXCEEDED:
        return serviceUnavailable(options.requestId);
      default:
        return internalServerError(options.requestId);
    }
  }
  // The router could not decode a %-escape in a path parameter: no route names that object.
  if (isRouterDecodeError(error)) return notFound();
  return internalServerError(options.requestId);
}

function isRouterDecodeError(error: unknown): boolean {
  return error instanceof URIError && (error as { status?: unknown }).status === 400;
}
