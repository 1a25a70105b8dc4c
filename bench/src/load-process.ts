import autocannon from 'autocannon';
import type { LoadRequest, LoadResult } from './load-protocol.js';

/**
 * Child process entry (forked by load-runner.ts): runs autocannon once with the request it is sent
 * and sends back a small summary. One phase per process keeps phases from sharing warm state.
 */
// If the bench process dies, stop loading its (gone) servers instead of running out the phase.
process.once('disconnect', () => process.exit(1));

process.once('message', (request: LoadRequest) => {
  run(request).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
  );
});

async function run(request: LoadRequest): Promise<LoadResult> {
  const result = await autocannon({
    url: request.origin,
    connections: request.connections,
    duration: request.durationSeconds,
    headers: request.headers,
    // Static, prebuilt requests (one per account code) cost the generator nothing per request,
    // unlike a setupRequest callback; every connection cycles through all of them.
    requests: request.paths.map((path) => ({ method: 'GET', path })),
    timeout: 10,
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(stats.count);
  const completed = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  const cpu = process.cpuUsage();
  return {
    requestsPerSecond: completed / result.duration,
    totalRequests: completed,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    statusCodes,
    durationSeconds: result.duration,
    loadCpuMicros: cpu.user + cpu.system,
  };
}
