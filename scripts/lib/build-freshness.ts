import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspacePackage } from './workspace.ts';

/**
 * When a package's build (`tsc -p tsconfig.build.json`, src/ to dist/) is out of date, by
 * modification times: what the build reads against what it wrote, or against what the last build
 * of these scripts saw (its stamp).
 */

/**
 * The newest modification among what the build reads: the package's src/ (folders too, so a
 * deleted or renamed file counts), its package.json and tsconfig.build.json, and the shared
 * tsconfig.base.json. Test files are not built but are counted with their folder.
 */
export function newestInputMtime(pkg: WorkspacePackage, rootDir: string): number {
  let newest = 0;
  const consider = (path: string) => {
    newest = Math.max(newest, statSync(path).mtimeMs);
  };
  for (const file of [join(pkg.dir, 'package.json'), join(pkg.dir, 'tsconfig.build.json')]) {
    if (existsSync(file)) consider(file);
  }
  consider(join(rootDir, 'tsconfig.base.json'));
  walk(join(pkg.dir, 'src'), (path, isDirectory) => {
    if (isDirectory || !path.endsWith('.test.ts')) consider(path);
  });
  return newest;
}

/** The oldest file in dist/ (tsc rewrites every output on each build), or undefined without one. */
export function oldestOutputMtime(pkg: WorkspacePackage): number | undefined {
  let oldest: number | undefined;
  walk(join(pkg.dir, 'dist'), (path, isDirectory) => {
    if (!isDirectory) oldest = Math.min(oldest ?? Number.POSITIVE_INFINITY, statSync(path).mtimeMs);
  });
  return oldest;
}

/**
 * Up to date when dist/ exists and everything the build reads is older than what it wrote, or no
 * newer than the newest input the last build of these scripts saw (`stamp`): a stray old file left
 * in dist/ by a deleted source must not make the package stale for ever. An input exactly as old as
 * the outputs counts as changed after them: building once more is the safe side.
 */
export function isFresh(pkg: WorkspacePackage, rootDir: string, stamp: number | undefined): boolean {
  const oldestOutput = oldestOutputMtime(pkg);
  if (oldestOutput === undefined) return false;
  const newestInput = newestInputMtime(pkg, rootDir);
  return newestInput < oldestOutput || (stamp !== undefined && newestInput <= stamp);
}

function walk(dir: string, visit: (path: string, isDirectory: boolean) => void): void {
  if (!existsSync(dir)) return;
  visit(dir, true);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else visit(path, false);
  }
}
