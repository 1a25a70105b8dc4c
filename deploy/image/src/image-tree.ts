import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/** The package whose production dependencies make the image: it depends on every app. */
export const IMAGE_PACKAGE = '@billing/image';

/** Root files `npm ci` needs: the workspaces list, the lockfile, the install-script policy. */
export const ROOT_MANIFESTS = ['package.json', 'package-lock.json', '.npmrc'] as const;

/** Where stageImageTree puts things under its output directory (the Dockerfile copies these two). */
export const STAGED = { manifests: 'manifests', built: 'built' } as const;

interface PackageJson {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Every workspace of the root package.json by package name → directory relative to the root. */
function workspaces(root: string): Map<string, string> {
  const byName = new Map<string, string>();
  for (const pattern of readPackage(root).workspaces ?? []) {
    const dirs = pattern.endsWith('/*')
      ? readdirSync(path.join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
      : [pattern];
    for (const dir of dirs) {
      if (existsSync(path.join(root, dir, 'package.json'))) byName.set(readPackage(path.join(root, dir)).name, dir);
    }
  }
  return byName;
}

/**
 * The workspaces the image holds: @billing/image and, transitively, every workspace among their
 * production `dependencies` (never devDependencies: no test libraries, no bench, no local runner).
 * Sorted directories relative to the root.
 */
export function imageWorkspaces(root: string): string[] {
  const byName = workspaces(root);
  const found = new Set<string>();
  const pending = [IMAGE_PACKAGE];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (found.has(name)) continue;
    const dir = byName.get(name);
    if (dir === undefined) throw new Error(`${name} is not a workspace of ${root}`);
    found.add(name);
    pending.push(...Object.keys(readPackage(path.join(root, dir)).dependencies ?? {}).filter((dep) => byName.has(dep)));
  }
  return [...found].map((name) => byName.get(name)!).sort();
}

/**
 * Stages the image's files from a built checkout into `outDir`: `manifests/` (what `npm ci
 * --omit=dev` reads: the root manifests and each image workspace's package.json) and `built/`
 * (each image workspace's dist/). The Dockerfile copies the first, installs, then copies the
 * second; the image test assembles its tree from the same two.
 */
export function stageImageTree(root: string, outDir: string): { manifests: string; built: string } {
  const manifests = path.join(outDir, STAGED.manifests);
  const built = path.join(outDir, STAGED.built);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(manifests, { recursive: true });
  mkdirSync(built, { recursive: true });
  for (const file of ROOT_MANIFESTS) cpSync(path.join(root, file), path.join(manifests, file));
  const notBuilt: string[] = [];
  for (const dir of imageWorkspaces(root)) {
    cpSync(path.join(root, dir, 'package.json'), path.join(manifests, dir, 'package.json'));
    const dist = path.join(root, dir, 'dist');
    if (!existsSync(dist)) {
      notBuilt.push(dir);
      continue;
    }
    // Compiled output only: source maps and declarations are for development.
    cpSync(dist, path.join(built, dir, 'dist'), {
      recursive: true,
      filter: (source) => !/\.(d\.ts|d\.ts\.map|js\.map|tsbuildinfo)$/.test(source),
    });
  }
  if (notBuilt.length > 0) throw new Error(`not built (run the build first): ${notBuilt.join(', ')}`);
  return { manifests, built };
}
