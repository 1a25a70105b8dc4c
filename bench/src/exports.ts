import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { benchRun, optionsOrExit } from './command-line.js';
import { ensureDatabase } from './database.js';
import { type ExportOptions, parseExportOptions } from './export-options.js';
import { baselineCopySql, seedInvoices } from './export-seed.js';
import { startPlatformProcesses } from './platform-processes.js';
import { apiHeaders } from './seed-accounts.js';

/**
 * Benchmark: N invoices of one organization exported to CSV through the export job, against
 * `COPY (SELECT ...) TO STDOUT WITH CSV` of the same rows in the same run. The platform runs in
 * its production shape (gateway, accounts, subscriptions, invoicing as processes); a platform
 * phase is POST /api/v1/invoices/export/, polling the job until it is done, and the download read
 * to its end; the baseline phase is the COPY read to its end over one connection. Prints rows/s of
 * each side (best phase), the ratio, the job's and the download's share, and the peak resident
 * memory (VmHWM) of the invoicing process (the worker) and the gateway; exits 1 when a side did
 * not deliver N rows.
 */

const options: ExportOptions = optionsOrExit(() => parseExportOptions(process.argv.slice(2), process.env));
const { log, cleanups, runCleanups, state } = benchRun('bench:exports', 'stopping the platform');

interface Phase {
  side: 'baseline' | 'platform';
  rows: number;
  bytes: number;
  seconds: number;
  /** Platform only: from the POST until the job was seen done. */
  jobSeconds?: number;
}

/** Peak resident set of a process so far (Linux /proc), in MB. */
function peakMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmHWM:'));
  return Math.round(Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024);
}

/** Reads a stream of CSV bytes to its end: its records (CRLF-ended lines, the header included) and bytes. */
async function drain(chunks: AsyncIterable<Uint8Array>, lineEnd: number): Promise<{ lines: number; bytes: number }> {
  let lines = 0;
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    for (let index = chunk.indexOf(lineEnd); index !== -1; index = chunk.indexOf(lineEnd, index + 1)) lines += 1;
  }
  return { lines, bytes };
}

async function baselinePhase(sql: string): Promise<Phase> {
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const start = performance.now();
    const { lines, bytes } = await drain(client.query(copyTo(sql)), 0x0a);
    return { side: 'baseline', rows: lines - 1, bytes, seconds: (performance.now() - start) / 1000 };
  } finally {
    await client.end();
  }
}

async function platformPhase(gatewayUrl: string, token: string): Promise<Phase> {
  const headers = { ...apiHeaders(token), 'Content-Type': 'application/json' };
  const start = performance.now();
  const started = await fetch(`${gatewayUrl}/api/v1/invoices/export/`, { method: 'POST', headers, body: '{}' });
  if (started.status !== 202) throw new Error(`export: HTTP ${started.status} ${await started.text()}`);
  const { job_uuid: uuid } = (await started.json()) as { job_uuid: string };
  let job: { status: string; download_url: string | null; rows: number };
  for (;;) {
    const response = await fetch(`${gatewayUrl}/api/v1/exports/${uuid}/`, { headers });
    job = (await response.json()) as typeof job;
    if (job.status === 'done') break;
    if (job.status === 'failed') throw new Error(`the export failed: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const jobSeconds = (performance.now() - start) / 1000;
  const download = await fetch(job.download_url!, { headers });
  if (download.status !== 200 || !download.body) throw new Error(`download: HTTP ${download.status}`);
  const { lines, bytes } = await drain(download.body, 0x0a);
  return { side: 'platform', rows: lines - 1, bytes, seconds: (performance.now() - start) / 1000, jobSeconds };
}

try {
  await ensureDatabase(options.databaseUrl);
  const loadBefore = loadavg();
  const platform = await startPlatformProcesses({ databaseUrl: options.databaseUrl, natsUrl: options.natsUrl, log });
  cleanups.push(() => platform.stop());
  const headers = { ...apiHeaders(platform.token), 'Content-Type': 'application/json' };
  const created = await fetch(`${platform.gatewayUrl}/api/v1/accounts/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      code: 'bench-exports',
      company_name: 'Bench ApS',
      legal_address: 'Vesterbrogade 1',
      legal_zipcode: '1620',
      legal_city: 'København V',
      legal_country: 'DK',
    }),
  });
  if (created.status !== 201) throw new Error(`account: HTTP ${created.status} ${await created.text()}`);
  const account = (await created.json()) as { uuid: string; code: string };

  const admin = new pg.Client({ connectionString: options.databaseUrl });
  await admin.connect();
  const invoicing = { schema: platform.setSchemas.invoicing, organizationId: platform.organizationId };
  cleanups.push(async () => {
    await admin.query(`delete from "${invoicing.schema}".invoice where organization_id = $1`, [
      invoicing.organizationId,
    ]);
    await admin.query(
      `delete from "${invoicing.schema}".export_page where job_id in
         (select id from "${invoicing.schema}".export_job where organization_id = $1)`,
      [invoicing.organizationId],
    );
    await admin.query(`delete from "${invoicing.schema}".export_job where organization_id = $1`, [
      invoicing.organizationId,
    ]);
    await admin.end();
  });
  log(`seeding ${options.invoices} invoices of ${account.code} in ${invoicing.schema}`);
  await seedInvoices(admin, { ...invoicing, accountId: account.uuid, accountCode: account.code }, options.invoices);
  await admin.query(`analyze "${invoicing.schema}".invoice`);

  const pids = Object.fromEntries(platform.servers.map((server) => [server.name, server.pid]));
  const before = { invoicing: peakMb(pids.invoicing!), gateway: peakMb(pids.gateway!) };
  const sql = baselineCopySql(invoicing.schema, invoicing.organizationId);
  const phases: Phase[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const phase of [await baselinePhase(sql), await platformPhase(platform.gatewayUrl, platform.token)]) {
      const rate = Math.round(phase.rows / phase.seconds);
      const job =
        phase.jobSeconds === undefined
          ? ''
          : ` (job ${phase.jobSeconds.toFixed(2)} s, download ${(phase.seconds - phase.jobSeconds).toFixed(2)} s)`;
      log(
        `round ${round} ${phase.side}: ${phase.rows} rows, ${(phase.bytes / 1e6).toFixed(1)} MB in ${phase.seconds.toFixed(2)} s = ${rate} rows/s${job}`,
      );
      if (phase.rows !== options.invoices)
        throw new Error(`${phase.side} delivered ${phase.rows} rows, not ${options.invoices}`);
      phases.push(phase);
    }
  }
  const best = (side: Phase['side']) =>
    phases.filter((phase) => phase.side === side).reduce((a, b) => (a.seconds <= b.seconds ? a : b));
  const baseline = best('baseline');
  const exported = best('platform');
  const summary = {
    benchmark: 'exports',
    invoices: options.invoices,
    rounds: options.rounds,
    node: process.version,
    cores: availableParallelism(),
    load: {
      before: loadBefore.map((value) => Number(value.toFixed(2))),
      after: loadavg().map((value) => Number(value.toFixed(2))),
    },
    baseline_rows_per_s: Math.round(baseline.rows / baseline.seconds),
    platform_rows_per_s: Math.round(exported.rows / exported.seconds),
    ratio: Number((baseline.seconds / exported.seconds).toFixed(3)),
    platform_job_s: Number(exported.jobSeconds!.toFixed(2)),
    platform_download_s: Number((exported.seconds - exported.jobSeconds!).toFixed(2)),
    csv_mb: {
      baseline: Number((baseline.bytes / 1e6).toFixed(1)),
      platform: Number((exported.bytes / 1e6).toFixed(1)),
    },
    peak_rss_mb: {
      invoicing_before: before.invoicing,
      invoicing: peakMb(pids.invoicing!),
      gateway_before: before.gateway,
      gateway: peakMb(pids.gateway!),
    },
  };
  console.log(
    [
      `exports: ${options.invoices} invoices to CSV, best of ${options.rounds} rounds`,
      `  baseline (COPY ... TO STDOUT WITH CSV)  ${summary.baseline_rows_per_s} rows/s`,
      `  platform (job + download)               ${summary.platform_rows_per_s} rows/s (job ${summary.platform_job_s} s, download ${summary.platform_download_s} s)`,
      `  ratio ${summary.ratio} (target >= 0.5)`,
      `  peak RSS: invoicing ${summary.peak_rss_mb.invoicing} MB (before the exports ${summary.peak_rss_mb.invoicing_before} MB), gateway ${summary.peak_rss_mb.gateway} MB (before ${summary.peak_rss_mb.gateway_before} MB)`,
    ].join('\n'),
  );
  if (options.json) console.log(JSON.stringify(summary));
} catch (error) {
  console.error(error);
  state.exitCode = 1;
} finally {
  await runCleanups();
}
process.exit(state.exitCode);
