import { AppError, StatusCode } from '@billing/errors';
import { commonV1, rpcStatus } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { decodeStatusDetails, ERROR_DETAIL_TYPE_URL, encodeStatusDetails } from './status-details.js';

describe('AppError as google.rpc.Status details', () => {
  it('encodes one ErrorDetail packed in an Any', () => {
    const bytes = encodeStatusDetails(AppError.invalidField('legal_country', '"XX" is not a valid choice.'));

    const status = rpcStatus.Status.decode(bytes);
    expect([status.code, status.message, status.details.map((any) => any.type_url)]).toEqual([
      StatusCode.INVALID_ARGUMENT,
      'Invalid input.',
      [ERROR_DETAIL_TYPE_URL],
    ]);
    expect(commonV1.ErrorDetail.decode(status.details[0]!.value)).toEqual({
      reason: 'VALIDATION_FAILED',
      field_violations: [{ field: 'legal_country', description: '"XX" is not a valid choice.' }],
    });
  });

  it('decodes what it encoded', () => {
    const error = AppError.refused('ACCOUNT_HAS_INVOICES', 'The account has invoices.');

    expect(decodeStatusDetails(encodeStatusDetails(error))).toEqual({
      code: StatusCode.FAILED_PRECONDITION,
      message: 'The account has invoices.',
      reason: 'ACCOUNT_HAS_INVOICES',
      fieldViolations: [],
    });
  });

  it('finds nothing in a status without our ErrorDetail', () => {
    const foreign = rpcStatus.Status.encode({
      code: StatusCode.INTERNAL,
      message: 'boom',
      details: [{ type_url: 'type.googleapis.com/google.rpc.DebugInfo', value: Buffer.from([10, 1, 120]) }],
    }).finish();

    expect(decodeStatusDetails(foreign)).toBeUndefined();
  });

  it('finds nothing in bytes that are not a google.rpc.Status', () => {
    expect(decodeStatusDetails(Buffer.from([0xff, 0xff, 0xff]))).toBeUndefined();
  });
});
