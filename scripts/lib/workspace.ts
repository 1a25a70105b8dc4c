import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One package of the npm workspace, as its package.json declares it. */
export interface WorkspacePackage {
  name: string;
  /** Absolute path of its folder. */
  dir: string;
  /** The workspace packages it imports at run time (its `dependencies`). */
  dependencies: string[];
}

/**
 * The packages the root package.json lists under `workspaces` (folders, or `folder/*`), by name.
 * Only what this workspace uses is understood: no other glob syntax.
 */
export function readWorkspace(rootDir: string): Map<string, WorkspacePackage> {
  const root = readJson(join(rootDir, 'package.json')) as { workspaces?: string[] };
  const dirs = (root.workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(rootDir, pattern)];
    const parent = join(rootDir, pattern.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name));
  });
  const manifests = dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: readJson(join(dir, 'package.json')) as Manifest }));
  const names = new Set(manifests.map(({ manifest }) => manifest.name));
  return new Map(
    manifests.map(({ dir, manifest }) => [
      manifest.name,
      {
        name: manifest.name,
        dir,
        dependencies: Object.keys(manifest.dependencies ?? {}).filter((name) => names.has(name)),
      },
    ]),
  );
}

/** `name` and every workspace package it depends on, transitively, each after its dependencies. */
export function buildOrder(workspace: Map<string, WorkspacePackage>, name: string): WorkspacePackage[] {
  const ordered: WorkspacePackage[] = [];
  const visiting = new Set<string>();
  const visit = (current: string) => {
    if (ordered.some((pkg) => pkg.name === current)) return;
    if (visiting.has(current)) throw new Error(`workspace dependency cycle through ${current}`);
    const pkg = workspace.get(current);
    if (!pkg) throw new Error(`no workspace package named ${current}`);
    visiting.add(current);
    for (const dependency of pkg.dependencies) visit(dependency);
    visiting.delete(current);
    ordered.push(pkg);
  };
  visit(name);
  return ordered;
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}
