import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** A server process whose CPU time a phase is charged with. */
export interface ServerProcess {
  /** Short name for the per-process breakdown, e.g. `gateway`. */
  name: string;
  pid: number;
}

/** CPU time (user + system) of each process so far, in microseconds, keyed by name. */
export type CpuSnapshot = Map<string, number>;

let clockTicks: number | undefined;

/** Kernel clock ticks per second (USER_HZ), the unit of utime/stime in /proc/<pid>/stat. */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    } catch {
      clockTicks = Number.NaN;
    }
    // 100 is USER_HZ on every Linux architecture Node runs on.
    if (!Number.isInteger(clockTicks) || clockTicks <= 0) clockTicks = 100;
  }
  return clockTicks;
}

/**
 * User + system CPU time of a process in microseconds. This process: process.cpuUsage (µs
 * resolution). Any other: utime + stime from /proc/<pid>/stat (Linux; one tick is 10 ms, against
 * several seconds of CPU per phase).
 */
export function processCpuMicros(pid: number): number {
  if (pid === process.pid) {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  }
  return procStat(pid).cpu;
}

export function cpuSnapshot(processes: ServerProcess[]): CpuSnapshot {
  return new Map(processes.map(({ name, pid }) => [name, processCpuMicros(pid)]));
}

/** CPU microseconds each process spent since `before`. */
export function cpuSince(before: CpuSnapshot, processes: ServerProcess[]): Map<string, number> {
  const after = cpuSnapshot(processes);
  return new Map(processes.map(({ name }) => [name, after.get(name)! - before.get(name)!]));
}

export interface MachineCpu {
  busy: number;
  total: number;
}

/** Busy and total CPU ticks of the whole machine so far (all cores, from /proc/stat); undefined off Linux. */
export function machineCpu(): MachineCpu | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy, total: busy + idle! + iowait! };
  } catch {
    return undefined;
  }
}

/** Cores busy on average since `before`, whoever used them (servers, Postgres, load, neighbours). */
export function busyCoresSince(before: MachineCpu | undefined): number | undefined {
  const after = machineCpu();
  if (!before || !after || after.total === before.total) return undefined;
  return ((after.busy - before.busy) / (after.total - before.total)) * availableParallelism();
}

/**
 * CPU time of the Postgres backends serving `database` on this machine, in microseconds, keyed by
 * pid (their process titles read `postgres: [cluster: ]user database host(port) state`), and under
 * the key ENDED the CPU of the server's processes that have ended so far (the postmaster's
 * reaped children: backends that closed, autovacuum workers), which postgresCpuSince needs
 * (pools close idle connections, so a long run's backends come and go). Empty when Postgres runs
 * elsewhere or /proc is not there.
 */
export function postgresBackendCpu(database: string): Map<number, number> {
  const cpu = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return cpu;
  }
  let postmaster: number | undefined;
  for (const pid of pids) {
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!title.startsWith('postgres: ')) continue;
      const stat = procStat(Number(pid));
      // The server's other processes (other databases' backends, autovacuum) under -pid: only
      // their time before the window, which ENDED holds once they end, is needed (to subtract).
      if (!title.split(/[\s\0]+/).includes(database)) {
        cpu.set(-Number(pid), stat.cpu);
        continue;
      }
      cpu.set(Number(pid), stat.cpu);
      postmaster ??= stat.parent;
    } catch {
      // The process ended while we looked: its time is in ENDED once the postmaster has reaped it.
    }
  }
  if (postmaster !== undefined) {
    try {
      cpu.set(ENDED, procStat(postmaster).endedChildrenCpu);
    } catch {
      // The server stopped while we looked.
    }
  }
  return cpu;
}

/** postgresBackendCpu's key for the CPU of the server's processes that have ended (no pid is 0). */
const ENDED = 0;

/**
 * Postgres CPU spent since `before`: the backends' time since then (those started since count
 * from zero), and the time of the server's processes that ended since, less what those of them
 * that were running at `before` had spent by then (any of the server's, keyed -pid when not the
 * database's). The ended processes are all of the server's, so on a machine where other databases
 * are busy the time their closed connections spent within the window counts too.
 */
export function postgresCpuSince(before: Map<number, number>, database: string): number {
  const after = postgresBackendCpu(database);
  let total = 0;
  for (const [pid, micros] of after) if (pid > 0) total += micros - (before.get(pid) ?? 0);
  if (after.has(ENDED) && before.has(ENDED)) {
    total += after.get(ENDED)! - before.get(ENDED)!;
    // The time any server process that ended had spent before the window is not the window's;
    // only those the postmaster has reaped (gone from /proc) are in its children's time yet.
    for (const [key, micros] of before)
      if (key !== ENDED && !after.has(key) && !existsSync(`/proc/${Math.abs(key)}`)) total -= micros;
  }
  return total;
}

/** From /proc/<pid>/stat: the parent's pid, CPU in microseconds, and that of its reaped children. */
function procStat(pid: number): { parent: number; cpu: number; endedChildrenCpu: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Field 2 (comm) is in parentheses and may hold spaces: count fields after the last ')'. After
  // it come field 3 (state) onwards: ppid (4) at offset 1, utime and stime (14, 15) at 11 and 12,
  // cutime and cstime (16, 17) at 13 and 14.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  if (!Number.isFinite(fields[11]! + fields[12]! + fields[13]! + fields[14]!)) {
    throw new Error(`cannot read CPU time from /proc/${pid}/stat`);
  }
  const micros = (ticks: number) => (ticks * 1_000_000) / ticksPerSecond();
  return {
    parent: fields[1]!,
    cpu: micros(fields[11]! + fields[12]!),
    endedChildrenCpu: micros(fields[13]! + fields[14]!),
  };
}

/**
 * Waits until `processes` together use less than `maxCores` over a `windowMs` window (they have
 * worked off background work such as publishing the events of just-seeded rows), or `timeoutMs`
 * passed. Returns the milliseconds waited and the last window's use in cores.
 */
export async function waitForQuiet(
  processes: ServerProcess[],
  { maxCores = 0.05, windowMs = 1_000, timeoutMs = 60_000 } = {},
): Promise<{ waitedMs: number; cores: number; quiet: boolean }> {
  const start = performance.now();
  for (;;) {
    const before = cpuSnapshot(processes);
    const windowStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const used = [...cpuSince(before, processes).values()].reduce((sum, micros) => sum + micros, 0);
    const cores = used / ((performance.now() - windowStart) * 1_000);
    const waitedMs = performance.now() - start;
    if (cores < maxCores || waitedMs >= timeoutMs) return { waitedMs, cores, quiet: cores < maxCores };
  }
}
