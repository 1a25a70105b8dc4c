import type { AppError } from '@billing/errors';
import { Metadata, type StatusObject } from '@grpc/grpc-js';
import { encodeStatusDetails, STATUS_DETAILS_KEY } from './status-details.js';

/** The status a handler's AppError is answered with: its code and message, details in the trailer. */
export function appErrorToStatus(error: AppError): StatusObject {
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_KEY, encodeStatusDetails(error));
  return { code: error.code, details: error.message, metadata };
}
