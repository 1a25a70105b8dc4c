/**
 * Runs a built entry point of a workspace package after making its build, and the builds of the
 * packages it needs, up to date; while it runs, no other command of this checkout rebuilds them.
 *
 *   node scripts/run-built.ts <package> <entry, relative to the package> [arguments...]
 *   node scripts/run-built.ts --build-only <package>
 *
 * A build is made only when missing or older than its sources, under an exclusive lock that waits
 * for the commands running the current build: two commands started together (a script creating
 * several organizations) never see files the other is rewriting. `npm run admin` runs the admin
 * command line this way; `npm start` builds with --build-only and then runs the platform without
 * holding the lock (it runs for hours; an admin command must still be able to rebuild).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './lib/ensure-built.ts';
import { readWorkspace } from './lib/workspace.ts';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const buildOnly = args[0] === '--build-only';
const [packageName, entry, ...entryArgs] = buildOnly ? args.slice(1) : args;

if (!packageName || (!buildOnly && !entry)) {
  console.error('usage: node scripts/run-built.ts <package> <entry> [arguments...] | --build-only <package>');
  process.exit(2);
}

let lock: ReturnType<typeof ensureBuilt>;
try {
  // The entry's own output stays clean: what this script has to say goes to stderr.
  lock = ensureBuilt(packageName, { rootDir, say: (message) => console.error(message) });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

if (buildOnly) {
  lock.release();
} else {
  const script = join(readWorkspace(rootDir).get(packageName)!.dir, entry!);
  const child = spawn(process.execPath, [script, ...entryArgs], { stdio: 'inherit' });
  // A terminal's Ctrl-C reaches both processes: the entry decides how to stop; this one keeps the
  // lock until it has, then exits as it did.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);
  child.once('exit', (code, signal) => {
    lock.release();
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else {
      process.exit(code ?? 1);
    }
  });
}
