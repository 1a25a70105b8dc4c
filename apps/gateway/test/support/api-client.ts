export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
  text: string;
}

type Options = { headers?: Record<string, string> };

export interface ApiClient {
  get(path: string, options?: Options): Promise<ApiResponse>;
  post(path: string, body?: unknown, options?: Options): Promise<ApiResponse>;
  put(path: string, body?: unknown, options?: Options): Promise<ApiResponse>;
  patch(path: string, body?: unknown, options?: Options): Promise<ApiResponse>;
  delete(path: string, options?: Options): Promise<ApiResponse>;
  /** No default headers; for auth and media-type tests. */
  raw(path: string, init?: RequestInit): Promise<ApiResponse>;
}

async function send(baseUrl: string, path: string, init: RequestInit): Promise<ApiResponse> {
  const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual', ...init });
  const text = await response.text();
  let body: unknown = null;
  if (text && (response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}

/** A client that speaks as one API token, with the headers every integration sends. */
export function apiClient(baseUrl: string, token: string | null): ApiClient {
  const defaults = (extra: Record<string, string> = {}, json = false): Record<string, string> => ({
    ...(token ? { Authorization: `Token ${token}` } : {}),
    'X-Client-System': 'contract-tests',
    ...(json ? { 'Content-Type': 'application/json' } : {}),
    ...extra,
  });
  const withBody = (method: string) => (path: string, body?: unknown, options?: Options) =>
    send(baseUrl, path, {
      method,
      headers: defaults(options?.headers, body !== undefined),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  return {
    get: (path, options) => send(baseUrl, path, { method: 'GET', headers: defaults(options?.headers) }),
    post: withBody('POST'),
    put: withBody('PUT'),
    patch: withBody('PATCH'),
    delete: (path, options) => send(baseUrl, path, { method: 'DELETE', headers: defaults(options?.headers) }),
    raw: (path, init = {}) => send(baseUrl, path, init),
  };
}
