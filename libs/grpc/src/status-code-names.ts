import { StatusCode } from '@billing/errors';

const NAME_BY_CODE = new Map<number, keyof typeof StatusCode>(
  Object.entries(StatusCode).map(([name, code]) => [code, name as keyof typeof StatusCode]),
);

/** A number from the wire as a StatusCode; codes outside the gRPC table count as UNKNOWN. */
export function toStatusCode(code: number | undefined): StatusCode {
  return code !== undefined && NAME_BY_CODE.has(code) ? (code as StatusCode) : StatusCode.UNKNOWN;
}

/** 'NOT_FOUND' for 5: the name logs show and the reason a status without our details gets. */
export function statusCodeName(code: StatusCode): keyof typeof StatusCode {
  return NAME_BY_CODE.get(code) ?? 'UNKNOWN';
}
