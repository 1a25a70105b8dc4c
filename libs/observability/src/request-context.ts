import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What travels with one request through gateway → gRPC → events, for logs and audit. */
export interface RequestContext {
  requestId: string;
  organizationId?: string;
  apiUserId?: string;
  clientSystem?: string;
  externalUser?: string;
  /** The organization's IANA time zone: calendar arithmetic (renewals, periods) happens in it. */
  organizationTimeZone?: string;
  /**
   * The organization's own time (ISO 8601) when it runs on a test clock; absent on the real
   * clock. Every service reads "now" for the organization from here first (see runtime's orgNow).
   */
  organizationTime?: string;
  /**
   * When the caller stops waiting (epoch ms, real time): set by the gRPC server from the call's
   * deadline, never sent on. Work that may outlast it (waiting on another system before a change
   * commits) uses what is left, so the caller hears why instead of a timeout while the change commits.
   */
  deadline?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's request id when it is safe to log and echo; otherwise makes a new one. */
export function acceptOrCreateRequestId(candidate: string | undefined | null): string {
  return candidate && REQUEST_ID.test(candidate) ? candidate : randomUUID();
}
