import type { PhaseCounts } from './renewal-seed.js';

export type RenewalSide = 'scheduler' | 'baseline';

/** One measured phase: N due subscriptions renewed by one side. */
export interface RenewalPhase {
  side: RenewalSide;
  round: number;
  subscriptions: number;
  seconds: number;
  perSecond: number;
  /** CPU of this process (where both sides run, one after the other) per subscription. */
  cpuUsPerSubscription: number;
  /** CPU of the Postgres backends of the bench database per subscription; undefined when not visible. */
  postgresUsPerSubscription: number | undefined;
  /** Whole machine's busy cores during the phase (anyone's work, neighbours included). */
  busyCores: number | undefined;
  counts: PhaseCounts;
}

export interface RenewalSummary {
  settings: {
    subscriptions: number;
    batchSize: number;
    replicas: number;
    rounds: number;
    warmup: number;
    node: string;
    cores: number;
  };
  loadAverage: { before: number[]; after: number[] };
  scheduler: RenewalPhase | undefined;
  baseline: RenewalPhase | undefined;
  phases: RenewalPhase[];
  /** Scheduler subscriptions/s over baseline subscriptions/s, best phase of each. */
  ratio: number | undefined;
  target: number;
  targetMet: boolean | undefined;
}

export const TARGET_RATIO = 0.2;

/** The fastest phase of each side (noise only ever slows a phase down) and their ratio. */
export function summarizeRenewals(
  settings: RenewalSummary['settings'],
  loadAverage: RenewalSummary['loadAverage'],
  phases: RenewalPhase[],
): RenewalSummary {
  const best = (side: RenewalSide) =>
    phases.filter((phase) => phase.side === side).sort((a, b) => b.perSecond - a.perSecond)[0];
  const scheduler = best('scheduler');
  const baseline = best('baseline');
  const ratio = scheduler && baseline ? scheduler.perSecond / baseline.perSecond : undefined;
  return {
    settings,
    loadAverage,
    scheduler,
    baseline,
    phases,
    ratio,
    target: TARGET_RATIO,
    targetMet: ratio === undefined ? undefined : ratio >= TARGET_RATIO,
  };
}

export function phaseLine(phase: RenewalPhase): string {
  const c = phase.counts;
  return (
    `round ${phase.round} ${phase.side}: ${phase.perSecond.toFixed(0)} subscriptions/s ` +
    `(${phase.subscriptions} in ${phase.seconds.toFixed(2)} s), CPU ${phase.cpuUsPerSubscription.toFixed(0)} µs/sub, ` +
    `Postgres ${phase.postgresUsPerSubscription?.toFixed(0) ?? 'n/a'} µs/sub, ` +
    `machine ${phase.busyCores?.toFixed(2) ?? 'n/a'} cores busy; rows: charges ${c.charges} (sum ${c.amount}), ` +
    `outbox charge.created ${c.chargeCreated} + subscription.changed ${c.subscriptionChanged}, ` +
    `renewed ${c.renewed}; sizes: lines ${c.linesBytes} B, payloads ${c.chargeCreatedBytes} B / ${c.subscriptionChangedBytes} B`
  );
}

export function formatRenewalReport(summary: RenewalSummary): string {
  const s = summary.settings;
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  const row = (label: string, phase: RenewalPhase | undefined) =>
    phase
      ? `| ${label} | ${phase.perSecond.toFixed(0)} | ${phase.seconds.toFixed(2)} | ${phase.cpuUsPerSubscription.toFixed(0)} | ` +
        `${phase.postgresUsPerSubscription?.toFixed(0) ?? 'n/a'} | ${phase.busyCores?.toFixed(2) ?? 'n/a'} | ` +
        `${phase.counts.charges} | ${phase.counts.chargeCreated + phase.counts.subscriptionChanged} |`
      : `| ${label} | not run | | | | | | |`;
  const lines = [
    '',
    `renewals: ${s.subscriptions} due subscriptions per phase, batch size ${s.batchSize}, ${s.replicas} replica(s), ` +
      `${s.rounds} round(s), warm-up ${s.warmup}; node ${s.node}, ${s.cores} cores`,
    `load average (1/5/15 min): before ${load(summary.loadAverage.before)}, after ${load(summary.loadAverage.after)}`,
    '',
    '| side (best phase) | subscriptions/s | seconds | CPU µs/sub (bench process) | Postgres µs/sub | busy cores | charges | outbox rows |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    row('baseline: raw SQL (pg)', summary.baseline),
    row('scheduler: processAllDue', summary.scheduler),
    '',
  ];
  if (summary.ratio !== undefined) {
    lines.push(
      `ratio scheduler / baseline: ${summary.ratio.toFixed(3)} ` +
        `(target >= ${summary.target}: ${summary.targetMet ? 'met' : 'NOT met'})`,
    );
  }
  return lines.join('\n');
}
