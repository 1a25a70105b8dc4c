import type { Logger } from '@billing/observability';

/** The part of the platform's pino logger this library uses; tests can pass a recorder. */
export type EventsLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

const ignore = (): void => {};

/** For adapters created without a logger, e.g. in unit tests. */
export const silentLogger: EventsLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
