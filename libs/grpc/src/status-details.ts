import type { AppError, FieldViolation } from '@billing/errors';
import { commonV1, rpcStatus } from '@billing/proto';

/** The trailer in which gRPC carries a binary google.rpc.Status next to grpc-status. */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

export const ERROR_DETAIL_TYPE_URL = 'type.googleapis.com/billing.common.v1.ErrorDetail';

/** What a google.rpc.Status from one of our services says beyond the bare gRPC code. */
export interface StatusDetails {
  code: number;
  message: string;
  reason: string;
  fieldViolations: FieldViolation[];
}

/** google.rpc.Status with one Any holding billing.common.v1.ErrorDetail. */
export function encodeStatusDetails(error: AppError): Buffer {
  const detail = commonV1.ErrorDetail.encode({
    reason: error.reason,
    field_violations: error.fieldViolations.map(({ field, description }) => ({ field, description })),
  }).finish();
  const status = rpcStatus.Status.encode({
    code: error.code,
    message: error.message,
    details: [{ type_url: ERROR_DETAIL_TYPE_URL, value: Buffer.from(detail) }],
  }).finish();
  return Buffer.from(status);
}

/**
 * Undefined when the bytes are not a google.rpc.Status holding our ErrorDetail (a proxy or a
 * foreign server answered), so the caller falls back to the bare gRPC status.
 */
export function decodeStatusDetails(bytes: Uint8Array): StatusDetails | undefined {
  try {
    const status = rpcStatus.Status.decode(bytes);
    const packed = status.details.find((any) => any.type_url === ERROR_DETAIL_TYPE_URL);
    if (!packed) return undefined;
    const detail = commonV1.ErrorDetail.decode(packed.value);
    return {
      code: status.code,
      message: status.message,
      reason: detail.reason,
      fieldViolations: detail.field_violations.map(({ field, description }) => ({ field, description })),
    };
  } catch {
    return undefined;
  }
}
