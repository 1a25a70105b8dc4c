import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { isFresh, newestInputMtime } from './build-freshness.ts';
import { BuildLock } from './build-lock.ts';
import { buildOrder, readWorkspace, type WorkspacePackage } from './workspace.ts';

export interface EnsureBuiltOptions {
  /** The checkout's root folder (its package.json lists the workspaces). */
  rootDir: string;
  /** Said before waiting for a build or for the commands reading the builds, and before building. */
  say(message: string): void;
}

/**
 * Makes the built code of `packageName` and of the workspace packages it needs up to date, and
 * returns holding the shared build lock: no build rewrites that code until release(). A stale or
 * missing build is made under the exclusive lock, that is never while another command runs built
 * code, and only once however many commands find it stale together.
 */
export function ensureBuilt(packageName: string, options: EnsureBuiltOptions): BuildLock {
  const packages = buildOrder(readWorkspace(options.rootDir), packageName);
  const lock = new BuildLock(join(options.rootDir, 'node_modules', '.cache', 'billing-build', 'lock.sqlite'));
  const built = new Set<string>();
  for (;;) {
    lock.readShared(() => options.say('Waiting for the build another command started...'));
    const stale = stalePackages(packages, lock, options.rootDir);
    if (stale.length === 0) return lock;
    lock.release();
    // Built here and still stale: its sources changed while it was built (an editor saving), or its
    // build writes nothing. Say so rather than build for ever.
    const again = stale.find((pkg) => built.has(pkg.name));
    if (again) throw new Error(`${again.name} is still older than its sources after it was built; run again`);

    lock.takeExclusive(() => options.say('Waiting for the commands running the current build to finish...'));
    try {
      // Another command may have built it while this one waited.
      for (const pkg of stalePackages(packages, lock, options.rootDir)) {
        options.say(`Building ${pkg.name}...`);
        built.add(pkg.name);
        const newestInput = newestInputMtime(pkg, options.rootDir);
        compile(pkg, options.rootDir);
        lock.recordStamp(pkg.dir, newestInput);
      }
    } finally {
      lock.release();
    }
  }
}

/** The packages whose build is missing or older than their sources, dependencies first. */
function stalePackages(packages: WorkspacePackage[], lock: BuildLock, rootDir: string): WorkspacePackage[] {
  const stamps = lock.stamps();
  return packages.filter((pkg) => !isFresh(pkg, rootDir, stamps.get(pkg.dir)));
}

/** The `tsc` the workspace installed (its package lists it as a bin, not as an export). */
function typeScriptCompiler(rootDir: string): string {
  const manifest = createRequire(join(rootDir, 'package.json')).resolve('typescript/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { tsc: string } };
  return join(dirname(manifest), bin.tsc);
}

/** The package's own build, as nx runs it: `tsc -p tsconfig.build.json` in its folder. */
function compile(pkg: WorkspacePackage, rootDir: string): void {
  const tsc = typeScriptCompiler(rootDir);
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: pkg.dir, encoding: 'utf8' });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`.trim();
    throw new Error(
      `the build of ${pkg.name} (${relative(rootDir, pkg.dir)}: tsc -p tsconfig.build.json) failed:\n${output}`,
    );
  }
}
