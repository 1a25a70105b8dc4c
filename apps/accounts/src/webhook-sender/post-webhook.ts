import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress, literalAddress } from '../domain/webhooks/endpoint-address.js';

export interface WebhookPost {
  endpoint: string;
  body: string;
  headers: Record<string, string>;
  basicAuth: { username: string; password: string } | null;
  timeoutMs: number;
  /** Refuse to connect to loopback and private addresses (checked on the address connected to). */
  forbidPrivate: boolean;
}

/** What the receiver answered: its status, or why there was no answer. */
export interface PostResult {
  responseStatus: number | null;
  error: string;
}

const FORBIDDEN = 'the endpoint resolves to a loopback or private network address';

/** A DNS lookup that fails for private addresses, so a name cannot be pointed at one later. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as Array<{ address: string; family: number }>;
    if (list.length === 0 || list.some((entry) => isPrivateAddress(entry.address))) {
      return callback(Object.assign(new Error(FORBIDDEN), { code: 'EFORBIDDEN' }), '', 0);
    }
    if (options.all) return (callback as (e: null, a: typeof list) => void)(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};

/**
 * POSTs one webhook body. The whole exchange (connect, answer, body) has `timeoutMs`; redirects
 * are not followed (a 3xx is not an acknowledgement). The answer's body is read and dropped.
 */
export function postWebhook(post: WebhookPost): Promise<PostResult> {
  const url = new URL(post.endpoint);
  const literal = literalAddress(url.hostname);
  if (post.forbidPrivate && (url.hostname === 'localhost' || (literal !== null && isPrivateAddress(literal)))) {
    return Promise.resolve({ responseStatus: null, error: FORBIDDEN });
  }
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = {
    ...post.headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(post.body)),
    'user-agent': 'billing-webhooks/1',
  };
  if (post.basicAuth) {
    const credentials = `${post.basicAuth.username}:${post.basicAuth.password}`;
    headers.authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
  }
  return new Promise((resolve) => {
    const request = client.request(url, {
      method: 'POST',
      headers,
      signal: AbortSignal.timeout(post.timeoutMs),
      agent: false,
      ...(post.forbidPrivate && isIP(url.hostname) === 0 ? { lookup: publicOnlyLookup } : {}),
    });
    request.on('response', (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve({ responseStatus: response.statusCode ?? null, error: '' }));
      response.on('error', (error) => resolve({ responseStatus: null, error: describe(error, post.timeoutMs) }));
    });
    request.on('error', (error) => resolve({ responseStatus: null, error: describe(error, post.timeoutMs) }));
    request.end(post.body);
  });
}

function describe(error: Error, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  return error.message;
}
