/**
 * Written by accounts-read and billing-run --cpu-prof next to the gateway/ and accounts/ profile folders: the
 * measured platform phases as [{ start, end }] in microseconds of CLOCK_MONOTONIC, the clock of the
 * `startTime` and sample timestamps in V8 CPU profiles on Linux.
 */
export const PHASES_FILE = 'platform-phases.json';

export interface PhaseWindow {
  start: number;
  end: number;
}

/** CLOCK_MONOTONIC in microseconds, the clock of V8 CPU profile timestamps on Linux. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
