import { currentContext } from '@billing/observability';
import type { GrpcLogger } from '../src/grpc-logger.js';

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
  /** The request id a pino logger's mixin would have added to this line. */
  requestId: string | undefined;
}

/** Keeps every line in memory, with the request context active when it was written. */
export function recordingLogger(): GrpcLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const record = (level: LogEntry['level']) => (fields: object, message: string) => {
    entries.push({ level, fields: { ...fields }, message, requestId: currentContext()?.requestId });
  };
  return { entries, info: record('info'), warn: record('warn'), error: record('error') };
}
