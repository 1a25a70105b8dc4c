import { fork } from 'node:child_process';
import type { LoadRequest, LoadResult } from './load-protocol.js';
import {
  busyCoresSince,
  cpuSince,
  cpuSnapshot,
  machineCpu,
  postgresBackendCpu,
  postgresCpuSince,
  type ServerProcess,
} from './process-cpu.js';

export type { LoadRequest, LoadResult } from './load-protocol.js';

export interface PhaseResult extends LoadResult {
  /**
   * CPU time (user + system) the side's server processes spent per completed request during the
   * phase, in microseconds, summed over those processes: the bench process for a server running in
   * it, the gateway and service processes for the platform in its production shape. Postgres's CPU
   * is not in it. On a CPU-bound run it explains the ratio: throughput is roughly the cores the side
   * can use divided by this.
   */
  serverCpuUsPerRequest: number;
  /** The same per server process, by name (e.g. gateway, accounts). */
  serverCpuUsPerRequestByProcess: Record<string, number>;
  /**
   * CPU per completed request of the Postgres backends serving the benchmark database, in
   * microseconds (undefined when Postgres is not on this machine). Includes the platform's own
   * database work besides the read, e.g. the gateway's rate-limit counters.
   */
  postgresCpuUsPerRequest: number | undefined;
  /** The load generator's CPU per completed request, in microseconds (same work for both sides). */
  loadCpuUsPerRequest: number;
  /**
   * Cores busy on average during the phase, on the whole machine: servers, Postgres, the load
   * generator and anything else running. Near the core count, the phase was short of CPU.
   */
  machineBusyCores: number | undefined;
}

/**
 * Runs one load phase in a child process and charges the CPU time of `servers` (and of the Postgres
 * backends serving `database`) to it. A load
 * generator in a server's event loop would steal its CPU time and skew the side that does more
 * work per request; its own process gives it the same share on a 2-core machine for both sides.
 */
export async function runLoad(request: LoadRequest, servers: ServerProcess[], database: string): Promise<PhaseResult> {
  const before = cpuSnapshot(servers);
  const postgresBefore = postgresBackendCpu(database);
  const machineBefore = machineCpu();
  const result = await runInChild(request);
  const cpu = cpuSince(before, servers);
  const postgresMicros = postgresCpuSince(postgresBefore, database);
  const machineBusyCores = busyCoresSince(machineBefore);
  const perRequest = (micros: number) => (result.totalRequests > 0 ? micros / result.totalRequests : 0);
  const serverCpuUsPerRequestByProcess = Object.fromEntries(
    [...cpu].map(([name, micros]) => [name, perRequest(micros)]),
  );
  const total = [...cpu.values()].reduce((sum, micros) => sum + micros, 0);
  return {
    ...result,
    serverCpuUsPerRequest: perRequest(total),
    serverCpuUsPerRequestByProcess,
    postgresCpuUsPerRequest: postgresMicros > 0 ? perRequest(postgresMicros) : undefined,
    loadCpuUsPerRequest: perRequest(result.loadCpuMicros),
    machineBusyCores,
  };
}

function runInChild(request: LoadRequest): Promise<LoadResult> {
  const child = fork(new URL('./load-process.js', import.meta.url), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  // Hard stop a little after the phase should have ended, so a wedged phase cannot hang the run.
  const limitMs = (request.durationSeconds + 30) * 1000;
  return new Promise<LoadResult>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new Error(`load phase did not finish within ${limitMs / 1000} s`));
    }, limitMs);
    const finish = (error: Error | null, result?: LoadResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(result!);
    };
    child.once('message', (message: { result?: LoadResult; error?: string }) => {
      if (message.error) finish(new Error(`load process failed: ${message.error}`));
      else finish(null, message.result);
    });
    child.once('error', (error) => finish(error));
    child.once('exit', (code, signal) => finish(new Error(`load process exited (${code ?? signal}) without a result`)));
    child.send(request);
  });
}
