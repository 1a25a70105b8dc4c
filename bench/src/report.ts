import { availableParallelism } from 'node:os';
import type { PhaseResult } from './load-runner.js';

export const TARGET_RATIO = 0.5;

export interface SideRuns {
  label: string;
  /** Measured phases, in run order. */
  runs: PhaseResult[];
  /** Failed requests seen during warm-ups (not measured, but still a failure of the run). */
  warmupFailures: number;
}

/** processes: gateway and services as separate processes (production shape); in-process: all in the bench process. */
export type BenchMode = 'processes' | 'in-process' | 'baseline-only';

export interface BenchSettings {
  mode: BenchMode;
  /** os.loadavg() (1, 5, 15 min) before the first phase and after the last: how busy the machine was. */
  loadAverage: { before: number[]; after: number[] };
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  accounts: number;
  /**
   * realistic: each account has 2 recipients, a card, 5 subscriptions and 3 draft lines (the
   * default); empty: no sets (--empty-accounts, the shape measured before issue 14).
   */
  accountShape: 'realistic' | 'empty';
}

export interface BenchSummary {
  settings: BenchSettings;
  baseline: SideSummary;
  platform?: SideSummary;
  /** Platform requests/s over baseline requests/s, best phase against best phase. */
  ratio?: number;
  targetRatio: number;
  targetMet?: boolean;
  /** Errors + non-2xx over every phase, warm-ups included. */
  failedRequests: number;
}

interface SideSummary {
  label: string;
  best: PhaseResult;
  runs: PhaseResult[];
}

export function summarize(settings: BenchSettings, baseline: SideRuns, platform?: SideRuns): BenchSummary {
  const baselineSummary = side(baseline);
  const platformSummary = platform ? side(platform) : undefined;
  const ratio = platformSummary
    ? platformSummary.best.requestsPerSecond / baselineSummary.best.requestsPerSecond
    : undefined;
  return {
    settings,
    baseline: baselineSummary,
    platform: platformSummary,
    ratio,
    targetRatio: TARGET_RATIO,
    targetMet: ratio === undefined ? undefined : ratio >= TARGET_RATIO,
    failedRequests: [baseline, platform].reduce((sum, s) => sum + (s ? failures(s) : 0), 0),
  };
}

/**
 * The best phase of each side (highest requests/s): noise on a shared 2-core machine (GC, other
 * processes, autovacuum) only ever slows a phase down, so the best is the closest to capacity.
 */
function side(runs: SideRuns): SideSummary {
  const best = runs.runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  return { label: runs.label, best, runs: runs.runs };
}

function failures(runs: SideRuns): number {
  return runs.warmupFailures + runs.runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0);
}

export function formatReport(summary: BenchSummary): string {
  const { settings } = summary;
  const lines = [
    '',
    `GET /api/v1/accounts/{code}/ over ${settings.accounts} accounts (${ACCOUNT_SHAPE_DESCRIPTIONS[settings.accountShape]}): ` +
      `${settings.connections} connections, ` +
      `${settings.durationSeconds} s per phase after ${settings.warmupSeconds} s warm-up, ` +
      `best of ${settings.rounds} alternating round(s)`,
    `platform: ${MODE_DESCRIPTIONS[settings.mode]}`,
    `load average (1/5/15 min): ${loads(settings.loadAverage.before)} before the first phase, ` +
      `${loads(settings.loadAverage.after)} after the last (a phase itself keeps about 3 processes busy)`,
    '',
  ];
  const header = ['', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'Postgres µs/req', 'busy cores', 'errors', 'non-2xx'];
  const rows: string[][] = [];
  for (const s of [summary.baseline, summary.platform]) {
    if (!s) continue;
    rows.push(row(s.label, s.best));
    s.runs.forEach((run, index) => {
      rows.push(row(`  round ${index + 1}`, run));
    });
  }
  lines.push(...table([header, ...rows]), '');
  if (summary.ratio !== undefined) {
    lines.push(
      `ratio platform/baseline throughput: ${summary.ratio.toFixed(2)} ` +
        `(target >= ${summary.targetRatio.toFixed(2)}: ${summary.targetMet ? 'met' : 'NOT met'})`,
    );
  } else {
    lines.push('baseline only: no platform phase, no ratio');
  }
  const byProcess = Object.entries(summary.platform?.best.serverCpuUsPerRequestByProcess ?? {});
  if (byProcess.length > 1) {
    lines.push(
      `platform CPU µs/req by process (best phase): ` +
        byProcess.map(([name, micros]) => `${name} ${micros.toFixed(0)}`).join(' + '),
    );
  }
  lines.push(
    settings.mode === 'processes'
      ? 'CPU µs/req: server-side CPU per request: the bench process for the baseline, the gateway and service ' +
          'processes summed for the platform (Postgres and the load generator not included)'
      : 'CPU µs/req: CPU time of the bench process, where the servers run, per request ' +
          '(Postgres and the load generator not included)',
  );
  lines.push(
    'Postgres µs/req: CPU of the Postgres backends serving the benchmark database, per request (n/a: not on this machine)',
    `busy cores: the whole machine's average (of ${availableParallelism()}) during the phase: servers, ` +
      'Postgres, the load generator and anything else running',
  );
  if (summary.failedRequests > 0) {
    lines.push(`FAILED: ${summary.failedRequests} request(s) errored or answered non-2xx (warm-ups included)`);
  }
  return lines.join('\n');
}

const loads = (averages: number[]) => averages.map((load) => load.toFixed(2)).join(' ');

const ACCOUNT_SHAPE_DESCRIPTIONS: Record<BenchSettings['accountShape'], string> = {
  realistic: 'each with 2 recipients, a card, 5 subscriptions and 3 draft lines',
  empty: 'with empty sets',
};

const MODE_DESCRIPTIONS: Record<BenchMode, string> = {
  processes: 'production shape, the gateway and each service as separate processes, events on NATS',
  'in-process': 'in the bench process (--in-process): gateway and all services on one event loop, in-process bus',
  'baseline-only': 'none (--baseline-only)',
};

function row(label: string, run: PhaseResult): string[] {
  return [
    label,
    run.requestsPerSecond.toFixed(0),
    run.p50Ms.toFixed(1),
    run.p99Ms.toFixed(1),
    run.serverCpuUsPerRequest.toFixed(0),
    run.postgresCpuUsPerRequest?.toFixed(0) ?? 'n/a',
    run.machineBusyCores?.toFixed(2) ?? 'n/a',
    String(run.errors),
    String(run.non2xx),
  ];
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((r) => r[column]!.length)));
  return rows.map((r) =>
    r.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '),
  );
}
