/**
 * Written by accounts-read --cpu-prof next to the gateway/ and accounts/ profile folders: the
 * measured platform phases as [{ start, end }] in microseconds of CLOCK_MONOTONIC, the clock of the
 * `startTime` and sample timestamps in V8 CPU profiles on Linux.
 */
export const PHASES_FILE = 'platform-phases.json';

export interface PhaseWindow {
  start: number;
  end: number;
}
