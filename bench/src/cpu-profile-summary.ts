import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PHASES_FILE, type PhaseWindow } from './cpu-profile-phases.js';

/**
 * Summarises V8 CPU profiles (`--cpu-prof`, e.g. from `accounts-read --cpu-prof <dir>`): self time
 * by package (node_modules package, workspace app/lib, node: internals, or a V8 pseudo-frame such
 * as `(garbage collector)`), the same with Node's own modules charged to the package that called
 * them, and the costliest functions, as a share of the non-idle time. The profiler samples wall
 * time: a thread that waits for a core inside a syscall (writev on a busy 2-core machine) is
 * counted as busy there; `perf record -e cpu-clock` shows on-CPU time only.
 *
 *   npx node bench/dist/cpu-profile-summary.js /tmp/prof/gateway /tmp/prof/accounts [--top 20]
 *
 * When the profiles' folder (or its parent) holds the bench's platform-phases.json, only samples
 * taken during the measured platform phases count: start-up, seeding and baseline phases are left out.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args.splice(topIndex, 2)[1]) : 20;
if (args.length === 0) {
  console.error('usage: cpu-profile-summary <profile file or folder>... [--top n]');
  process.exit(2);
}

for (const target of args) {
  const files = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => join(target, name))
    : [target];
  const phases = [target, dirname(target), dirname(dirname(target))]
    .map((dir) => join(dir, PHASES_FILE))
    .find((path) => existsSync(path));
  const windows = phases ? (JSON.parse(readFileSync(phases, 'utf8')) as PhaseWindow[]) : undefined;
  for (const file of files) summarise(file, windows);
}

function summarise(file: string, windows: PhaseWindow[] | undefined): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  // The nearest frame on the stack that belongs to a package or workspace project: Node's own
  // modules (http, http2, streams, and the writev under them) are charged to whoever called them.
  const owner = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const pkg = packageOf(nodes.get(at)!.callFrame);
      if (!pkg.startsWith('node:') && !pkg.startsWith('(')) return pkg;
    }
    return packageOf(nodes.get(id)!.callFrame);
  };
  const selfMicros = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    // A sample's delta is the time since the previous one: the time it stands for ends at `at`.
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (windows && !windows.some((window) => at >= window.start && at <= window.end)) return;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + delta);
  });
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let idle = 0;
  let busy = 0;
  for (const [id, micros] of selfMicros) {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += micros;
      continue;
    }
    busy += micros;
    const pkg = packageOf(frame);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    const charged = frame.functionName === '(garbage collector)' ? pkg : owner(id);
    byOwner.set(charged, (byOwner.get(charged) ?? 0) + micros);
    const fn = `${pkg} ${frame.functionName || '(anonymous)'}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
  }
  const share = (micros: number) => `${((micros / busy) * 100).toFixed(1).padStart(5)}%`;
  const scope = windows ? `during ${windows.length} measured platform phase(s)` : 'whole run';
  console.log(`\n${file} (${scope}): ${(busy / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle`);
  console.log('self time by package:');
  for (const [pkg, micros] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${share(micros)}  ${pkg}`);
  }
  console.log("self time by package, Node's own modules and natives charged to the package that called them:");
  for (const [pkg, micros] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${share(micros)}  ${pkg}`);
  }
  console.log('self time by function:');
  for (const [fn, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${share(micros)}  ${fn}`);
  }
}

function packageOf(frame: CallFrame): string {
  const { url } = frame;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  // Node's own modules by name: socket writes show up under node:internal/stream_base_commons.
  if (url.startsWith('node:')) return url;
  const workspace = /\/(apps|libs|bench|deploy)\/([^/]+)\//.exec(url);
  if (workspace) return `${workspace[1]}/${workspace[2]}`;
  return url;
}
