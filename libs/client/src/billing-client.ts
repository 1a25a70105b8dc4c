import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './gen/api.js';

export interface BillingClientOptions {
  /** Where the gateway answers, e.g. `http://127.0.0.1:8000` (the paths begin with `/api/v1/`). */
  baseUrl: string;
  /** An API token (`npm run admin -- create-token`); sent as `Authorization: Token <token>`. */
  token: string;
  /** The calling application's name, sent as `X-Client-System` (the API requires it). */
  clientSystem: string;
  /** The person in the calling system, sent as `X-User` on every request (the audit trail). */
  user?: string;
  /** Another fetch (a proxy, a test's); the global one by default. */
  fetch?: ClientOptions['fetch'];
}

/** openapi-fetch's client over the gateway's paths: `GET`, `POST`, … typed by path and method. */
export type BillingClient = Client<paths>;

export function createBillingClient(options: BillingClientOptions): BillingClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      Authorization: `Token ${options.token}`,
      'X-Client-System': options.clientSystem,
      ...(options.user !== undefined ? { 'X-User': options.user } : {}),
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** An answer other than 2xx: its status and the API's error body (`{"detail": …}` or field errors). */
export class BillingApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Billing API answered ${status}: ${JSON.stringify(body)}`);
    this.name = 'BillingApiError';
  }
}

/**
 * The data of a successful answer, or a BillingApiError: `const account = unwrap(await
 * billing.POST('/api/v1/accounts/', { body }))`.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw new BillingApiError(result.response.status, result.error);
  return result.data as T;
}
