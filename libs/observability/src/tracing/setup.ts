import { context, DiagLogLevel, diag, propagation, trace } from '@opentelemetry/api';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * The SDK is loaded only when tracing is turned on: a process without an endpoint never loads the
 * exporter, the SDK or their dependencies (the API alone, a no-op, stays).
 */
const loadSdk = async () => {
  const [hooks, core, exporter, resources, sdk, conventions] = await Promise.all([
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  return { ...hooks, ...core, ...exporter, ...resources, ...sdk, ...conventions };
};
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

export interface TracingOptions {
  /** The service's own name, used when OTEL_SERVICE_NAME does not name it. */
  serviceName: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Where finished spans go instead of the OTLP exporter the environment configures (tests of the
   * libraries, which look at spans in memory). Tracing is on whenever one is given.
   */
  exporter?: SpanExporter;
  /** Told when spans cannot be exported (the collector is down, refuses them): one warning each. */
  logger?: { warn(fields: object, message: string): void };
}

export interface Tracing {
  /** False when no OTLP endpoint is configured: nothing is recorded, nothing is sent. */
  readonly enabled: boolean;
  /** Exports what is still buffered. A failed export is reported to the logger, never thrown. */
  flush(): Promise<void>;
  /** Flushes, then stops exporting (the process calls it before it exits); never throws either. */
  shutdown(): Promise<void>;
}

const DISABLED: Tracing = { enabled: false, flush: async () => {}, shutdown: async () => {} };

let installed: Promise<Tracing> | undefined;
let enabled = false;

/**
 * Turns tracing on for this process when an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`; OTLP/HTTP
 * with JSON bodies): spans are batched and exported under the resource `service.name`
 * (OTEL_SERVICE_NAME, else `serviceName`), W3C trace context (traceparent, tracestate) is what
 * travels between processes. Without an endpoint, or with OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none, it installs nothing: the OpenTelemetry API stays its no-op self, so a
 * span costs a function call and no trace context is read or written.
 *
 * One provider per process: the all-in-one runner starts every service in one process and calls
 * this once per service; the first call that turns tracing on decides, the later ones get it.
 */
export async function initTracing(options: TracingOptions): Promise<Tracing> {
  if (installed) return installed;
  const env = options.env ?? process.env;
  // Checked before anything loads, so a misspelt endpoint fails the start at once.
  const url = options.exporter ? undefined : otlpTracesUrl(env);
  if (!options.exporter && !url) return DISABLED;
  installed = install(options, env, url).catch((error: unknown) => {
    installed = undefined;
    throw error;
  });
  return installed;
}

async function install(options: TracingOptions, env: NodeJS.ProcessEnv, url: string | undefined): Promise<Tracing> {
  const sdk = await loadSdk();
  const exporter = options.exporter ?? new sdk.OTLPTraceExporter({ url, ...exportTimeout(env) });
  if (options.logger) reportExportProblems(options.logger);
  const provider = new sdk.TracerProvider({
    resource: sdk.resourceFromAttributes({
      [sdk.ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME?.trim() || options.serviceName,
    }),
    sampler: samplerFrom(sdk, env),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter, ...batchDelay(env) })],
  });
  context.setGlobalContextManager(new sdk.AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new sdk.W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  enabled = true;
  const reported = (work: Promise<void>) =>
    work.catch((error: unknown) =>
      options.logger?.warn({ err: error }, 'tracing: spans could not be exported; they are dropped'),
    );
  return {
    enabled: true,
    flush: () => reported(provider.forceFlush()),
    async shutdown() {
      await reported(provider.shutdown());
      trace.disable();
      diag.disable();
      propagation.disable();
      context.disable();
      enabled = false;
      installed = undefined;
    },
  };
}

/** Whether this process records spans (initTracing found an endpoint or was given an exporter). */
export function tracingEnabled(): boolean {
  return enabled;
}

const ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const;

/**
 * Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else OTEL_EXPORTER_OTLP_ENDPOINT
 * with `/v1/traces` (the OTLP rule); undefined when neither is set. A set one must be an http(s)
 * URL: the exporter would otherwise fall back to its default (localhost:4318) without a word, and
 * a misspelt endpoint must stop the start. (The exporter reads its other OTEL_EXPORTER_OTLP_*
 * settings, headers and compression, from the process environment itself.)
 */
function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const [specific, general] = ENDPOINT_VARIABLES.map((variable) => {
    const value = env[variable]?.trim();
    if (value && (!/^https?:\/\/[^/]/.test(value) || !URL.canParse(value))) {
      throw new Error(`${variable} must be an http(s) URL (OTLP/HTTP), got "${value}"`);
    }
    return value || undefined;
  });
  if (specific) return specific;
  return general ? `${general.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** OTEL_EXPORTER_OTLP_TRACES_TIMEOUT or OTEL_EXPORTER_OTLP_TIMEOUT: ms one export may take (default 10 s). */
function exportTimeout(env: NodeJS.ProcessEnv): { timeoutMillis?: number } {
  const raw = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT;
  const ms = Number(raw);
  return raw && Number.isFinite(ms) && ms > 0 ? { timeoutMillis: ms } : {};
}

/** The SDK reports failed exports through its diagnostics channel, silent unless given a logger. */
function reportExportProblems(logger: { warn(fields: object, message: string): void }): void {
  const warn = (message: string, ...args: unknown[]) =>
    logger.warn(
      { detail: args.map((arg) => (arg instanceof Error ? arg.message : String(arg))) },
      `tracing: ${message}`,
    );
  diag.setLogger(
    { error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
}

/**
 * A trace is kept or dropped as a whole: a span follows its parent's decision (the caller's
 * traceparent flag, across processes); a root span (an HTTP request without traceparent) is kept
 * with the ratio OTEL_TRACES_SAMPLER_ARG when OTEL_TRACES_SAMPLER is parentbased_traceidratio,
 * else always.
 */
function samplerFrom(sdk: Sdk, env: NodeJS.ProcessEnv): Sampler {
  if (env.OTEL_TRACES_SAMPLER?.trim() !== 'parentbased_traceidratio') {
    return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() });
  }
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const root = new sdk.TraceIdRatioBasedSampler(Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 1);
  return new sdk.ParentBasedSampler({ root });
}

/** OTEL_BSP_SCHEDULE_DELAY (ms between exports, default 5000). */
function batchDelay(env: NodeJS.ProcessEnv): { scheduledDelayMillis?: number } {
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  return env.OTEL_BSP_SCHEDULE_DELAY && Number.isFinite(delay) && delay >= 0 ? { scheduledDelayMillis: delay } : {};
}
