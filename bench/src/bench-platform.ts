import type { ServerProcess } from './process-cpu.js';

/** Schemas of the services other than accounts (the platform's: their names). */
export interface SetSchemas {
  /** Holds `subscription`. */
  subscriptions: string;
  /** Holds `draft_invoice_line`. */
  invoicing: string;
}

/** The platform under test, however it was started (separate processes or in the bench process). */
export interface BenchPlatform {
  /** How the platform side is labelled in the report. */
  label: string;
  gatewayUrl: string;
  /** Schema where the accounts service keeps its tables (the baseline reads the same ones). */
  accountsSchema: string;
  /** Schemas of the services that own the account's other sets. */
  setSchemas: SetSchemas;
  organizationId: string;
  token: string;
  /** The processes whose CPU time a platform phase is charged with. */
  servers: ServerProcess[];
  stop(): Promise<void>;
}

// Far above what 2 cores can send in a minute: the benchmark measures the platform, not its limiter
// (the limiter still runs on every request, as it does in production).
export const BENCH_RATE_LIMIT_PER_MINUTE = 100_000_000;

export const benchOrganizationName = () => `Benchmark ${new Date().toISOString()}`;

/** A failure to set the platform up whose message says it all (printed without a stack trace). */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}
