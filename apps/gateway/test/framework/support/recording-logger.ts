import type { HttpLogger } from '../../../src/http/index.js';

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string | undefined;
  fields: Record<string, unknown>;
}

/** Keeps what the app logs so tests can assert on access lines and error logs. */
export class RecordingLogger implements HttpLogger {
  readonly entries: LogEntry[] = [];

  info(fields: object, message?: string): void {
    this.entries.push({ level: 'info', message, fields: { ...fields } });
  }

  warn(fields: object, message?: string): void {
    this.entries.push({ level: 'warn', message, fields: { ...fields } });
  }

  error(fields: object, message?: string): void {
    this.entries.push({ level: 'error', message, fields: { ...fields } });
  }

  accessLines(): LogEntry[] {
    return this.entries.filter((entry) => entry.message === 'request');
  }
}
