import { AppError, isAppError, StatusCode } from '@billing/errors';
import { type RequestContext, runWithContext, withActiveSpan } from '@billing/observability';
import type { handleUnaryCall, ServerUnaryCall, StatusObject } from '@grpc/grpc-js';
import { appErrorToStatus } from './app-error-status.js';
import { endServerCallSpan, startServerCallSpan } from './call-tracing.js';
import type { GrpcLogger } from './grpc-logger.js';
import { fromMetadata } from './metadata.js';
import { statusCodeName } from './status-code-names.js';
import type { UnaryHandler } from './unary-service.js';

/** Codes that mean the service itself failed; those calls are logged as errors, with the cause. */
const SERVER_FAULTS: ReadonlySet<StatusCode> = new Set([StatusCode.UNKNOWN, StatusCode.INTERNAL, StatusCode.DATA_LOSS]);

type Outcome = { response: unknown; status?: never } | { status: StatusObject; error: unknown };

/**
 * Adapts a plain async handler to grpc-js: the caller's RequestContext is read from metadata and
 * the handler runs inside it (so every log line carries the request id) and inside the call's
 * server span (a child of the caller's span, from its traceparent metadata); a thrown AppError
 * becomes its status, anything else INTERNAL 'Internal server error.' (logged, never echoed);
 * and each call is logged once with its method, code and duration.
 */
export function unaryCallHandler(
  method: string,
  handler: UnaryHandler<never, unknown>,
  logger: GrpcLogger,
): handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const startedAt = performance.now();
    const context = withDeadline(fromMetadata(call.metadata), call);
    // A child of the caller's span when its metadata carries traceparent (see call-tracing.ts).
    const span = startServerCallSpan(method, call.metadata);
    void runWithContext(context, () =>
      withActiveSpan(span, async () => {
        const outcome = await invoke(handler, call, context);
        logCall(logger, method, call, outcome, performance.now() - startedAt);
        if (outcome.status) endServerCallSpan(span, outcome.status.code as StatusCode, outcome.error);
        else endServerCallSpan(span, StatusCode.OK);
        // Outside invoke's try: a failure inside grpc-js while replying must not be answered twice.
        if (outcome.status) callback(outcome.status);
        else callback(null, outcome.response);
      }),
    );
  };
}

/** The call's deadline in the context, when it has one (grpc-js gives Infinity otherwise). */
function withDeadline(context: RequestContext, call: ServerUnaryCall<unknown, unknown>): RequestContext {
  const deadline = Number(call.getDeadline());
  return Number.isFinite(deadline) ? { ...context, deadline } : context;
}

async function invoke(
  handler: UnaryHandler<never, unknown>,
  call: ServerUnaryCall<unknown, unknown>,
  context: RequestContext,
): Promise<Outcome> {
  try {
    return { response: await handler(call.request as never, context) };
  } catch (error) {
    // An AppError claiming OK would reach the client as a success without a response.
    const answered = isAppError(error) && error.code !== StatusCode.OK ? error : AppError.internal();
    return { status: appErrorToStatus(answered), error };
  }
}

function logCall(
  logger: GrpcLogger,
  method: string,
  call: ServerUnaryCall<unknown, unknown>,
  outcome: Outcome,
  durationMs: number,
): void {
  const code = outcome.status ? (outcome.status.code as StatusCode) : StatusCode.OK;
  const fields = {
    grpc_method: method,
    grpc_code: statusCodeName(code),
    duration_ms: Math.round(durationMs * 10) / 10,
    ...droppedReply(call),
  };
  if (outcome.status && SERVER_FAULTS.has(code)) logger.error({ ...fields, err: outcome.error }, 'gRPC call failed');
  else logger.info(fields, 'gRPC call');
}

/**
 * The caller stopped waiting before the handler finished, so it got this code instead of
 * grpc_code: grpc-js answers DEADLINE_EXCEEDED itself when the deadline passes, and a cancel
 * (client gone, server cut) marks the call cancelled.
 */
function droppedReply(call: ServerUnaryCall<unknown, unknown>): { reply_dropped?: 'DEADLINE_EXCEEDED' | 'CANCELLED' } {
  if (Date.now() >= Number(call.getDeadline())) return { reply_dropped: 'DEADLINE_EXCEEDED' };
  if (call.cancelled) return { reply_dropped: 'CANCELLED' };
  return {};
}
