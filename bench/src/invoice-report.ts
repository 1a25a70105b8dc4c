import type { InvoiceCounts } from './invoice-seed.js';

export type InvoiceSide = 'invoicing' | 'baseline';

/** One measured phase: the same N charge.created messages invoiced by one side. */
export interface InvoicePhase {
  side: InvoiceSide;
  round: number;
  invoices: number;
  seconds: number;
  perSecond: number;
  /** CPU of this process (where both sides run, one after the other) per invoice. */
  cpuUsPerInvoice: number;
  /** CPU of the bench database's Postgres backends per invoice; undefined when not visible. */
  postgresUsPerInvoice: number | undefined;
  busyCores: number | undefined;
  counts: InvoiceCounts;
}

export interface InvoiceSummary {
  settings: { invoices: number; rounds: number; warmup: number; node: string; cores: number };
  loadAverage: { before: number[]; after: number[] };
  invoicing: InvoicePhase | undefined;
  baseline: InvoicePhase | undefined;
  phases: InvoicePhase[];
  /** Invoicing invoices/s over baseline invoices/s, best phase of each. */
  ratio: number | undefined;
  target: number;
  targetMet: boolean | undefined;
}

export const TARGET_RATIO = 0.2;

/** The fastest phase of each side (noise only ever slows a phase down) and their ratio. */
export function summarizeInvoices(
  settings: InvoiceSummary['settings'],
  loadAverage: InvoiceSummary['loadAverage'],
  phases: InvoicePhase[],
): InvoiceSummary {
  const best = (side: InvoiceSide) =>
    phases.filter((phase) => phase.side === side).sort((a, b) => b.perSecond - a.perSecond)[0];
  const invoicing = best('invoicing');
  const baseline = best('baseline');
  const ratio = invoicing && baseline ? invoicing.perSecond / baseline.perSecond : undefined;
  return {
    settings,
    loadAverage,
    invoicing,
    baseline,
    phases,
    ratio,
    target: TARGET_RATIO,
    targetMet: ratio === undefined ? undefined : ratio >= TARGET_RATIO,
  };
}

const us = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0));

export function invoicePhaseLine(phase: InvoicePhase): string {
  const c = phase.counts;
  return (
    `${phase.side} round ${phase.round}: ${phase.invoices} invoices in ${phase.seconds.toFixed(2)} s = ` +
    `${phase.perSecond.toFixed(0)}/s, CPU ${us(phase.cpuUsPerInvoice)} µs/invoice, Postgres ` +
    `${us(phase.postgresUsPerInvoice)} µs/invoice; ${c.lines} lines, totals ${c.subtotal} + VAT ${c.vat} = ` +
    `${c.total}, ${c.issuedEvents} invoice.issued (${c.issuedEventBytes} B), ${c.mailJobs} mail jobs`
  );
}

export function formatInvoiceReport(summary: InvoiceSummary): string {
  const rows = [
    ['side', 'invoices/s', 'CPU µs/invoice', 'Postgres µs/invoice', 'busy cores', 'round'],
    ...[summary.baseline, summary.invoicing]
      .filter((phase): phase is InvoicePhase => phase !== undefined)
      .map((phase) => [
        phase.side,
        phase.perSecond.toFixed(0),
        us(phase.cpuUsPerInvoice),
        us(phase.postgresUsPerInvoice),
        phase.busyCores === undefined ? '-' : phase.busyCores.toFixed(2),
        String(phase.round),
      ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const table = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')).join('\n');
  const s = summary.settings;
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ');
  const verdict =
    summary.ratio === undefined
      ? 'ratio: - (one side only)'
      : `ratio invoicing/baseline: ${summary.ratio.toFixed(3)} (target >= ${summary.target}: ${summary.targetMet ? 'met' : 'NOT met'})`;
  return [
    `invoices: ${s.invoices} charge.created messages per phase, one transaction per message, ${s.rounds} rounds, warm-up ${s.warmup}; Node ${s.node}, ${s.cores} cores; load ${load(summary.loadAverage.before)} -> ${load(summary.loadAverage.after)}`,
    table,
    verdict,
  ].join('\n');
}
