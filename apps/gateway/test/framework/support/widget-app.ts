import { TestClock } from '@billing/clock';
import {
  type Authenticator,
  createHttpApp,
  type HttpAppOptions,
  listen,
  type RunningHttpServer,
} from '../../../src/http/index.js';
import { InMemoryRateLimiter, type RateLimiter } from '../../../src/rate-limit/index.js';
import { ACME_TOKEN, FakeAuthenticator } from './fake-authenticator.js';
import { RecordingLogger } from './recording-logger.js';
import { WidgetStore, widgetRoutes } from './widget-routes.js';

export interface WidgetApp {
  url: string;
  clock: TestClock;
  logger: RecordingLogger;
  store: WidgetStore;
  authenticator: Authenticator;
  server: RunningHttpServer;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  /** JSON-encoded unless a string (then sent as is). */
  body?: unknown;
  /** Merged over the defaults (a valid token, X-Client-System, JSON content type for bodies). */
  headers?: Record<string, string | undefined>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text. */
  body: unknown;
  text: string;
}

export interface WidgetAppOptions extends Partial<Omit<HttpAppOptions, 'routes' | 'logger' | 'clock'>> {
  clock?: TestClock;
  store?: WidgetStore;
}

/** The framework with the fake widget routes, listening on a free port. */
export async function startWidgetApp(options: WidgetAppOptions = {}): Promise<WidgetApp> {
  const clock = options.clock ?? new TestClock('2026-01-15T10:00:15Z');
  const logger = new RecordingLogger();
  const store = options.store ?? new WidgetStore();
  const authenticator = options.authenticator ?? new FakeAuthenticator();
  const app = createHttpApp({
    ...options,
    routes: widgetRoutes(store),
    authenticator,
    rateLimiter: options.rateLimiter ?? new InMemoryRateLimiter(),
    idempotencyStore: options.idempotencyStore ?? null,
    clock,
    logger,
  });
  const server = await listen(app);
  return {
    url: server.url,
    clock,
    logger,
    store,
    authenticator,
    server,
    request: (method, path, requestOptions) => send(server.url, method, path, requestOptions),
    close: () => server.close(),
  };
}

export const DEFAULT_HEADERS = { Authorization: `Token ${ACME_TOKEN}`, 'X-Client-System': 'framework-tests' };

export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse> {
  const hasBody = options.body !== undefined;
  const headers: Record<string, string> = {};
  const merged = {
    ...DEFAULT_HEADERS,
    ...(hasBody && typeof options.body !== 'string' ? { 'Content-Type': 'application/json' } : {}),
    ...options.headers,
  };
  for (const [name, value] of Object.entries(merged)) if (value !== undefined) headers[name] = value;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(hasBody ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
  return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : text, text };
}

export type { RateLimiter };
