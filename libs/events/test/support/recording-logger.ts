import type { EventsLogger } from '../../src/index.js';

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string | undefined;
}

/** Keeps what the code under test logged, so tests can check that poison is reported. */
export function recordingLogger(): EventsLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (first: unknown, second?: unknown): void => {
      if (typeof first === 'string') lines.push({ level, fields: {}, message: first });
      else lines.push({ level, fields: first as Record<string, unknown>, message: second as string | undefined });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
