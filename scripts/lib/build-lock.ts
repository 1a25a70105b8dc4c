import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** SQLite's "database is locked". */
const SQLITE_BUSY = 5;
/** How long to wait for a build, or for the commands reading the builds, before giving up. */
const WAIT_LIMIT_MS = 15 * 60_000;

/**
 * A readers-writer lock between the commands of this checkout that run built code (readers) and
 * the build that rewrites it (the writer), with the build stamps it guards.
 *
 * It is SQLite's own file locking, through Node's built-in node:sqlite: a read transaction holds a
 * shared lock, `BEGIN EXCLUSIVE` waits until no reader is left and keeps new readers out while it
 * lasts. The kernel drops a process's locks when it dies, so a killed command never leaves the
 * lock taken.
 */
export class BuildLock {
  private readonly db: DatabaseSync;
  private held: 'shared' | 'exclusive' | undefined;

  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.db.exec('PRAGMA busy_timeout = 0');
  }

  /** Waits while a build runs, then keeps builds out until release(). */
  readShared(onWait: () => void): void {
    this.acquire('shared', onWait, () => {
      this.db.exec('BEGIN');
      // A read takes the shared lock; BEGIN alone takes none.
      this.db.prepare('select count(*) from sqlite_master').get();
    });
  }

  /** Waits until no command reads the builds, then keeps every other command out until release(). */
  takeExclusive(onWait: () => void): void {
    this.acquire('exclusive', onWait, () => this.db.exec('BEGIN EXCLUSIVE'));
    this.db.exec('create table if not exists build_stamp (package_dir text primary key, newest_input real not null)');
  }

  release(): void {
    if (!this.held) return;
    this.db.exec('COMMIT');
    this.held = undefined;
  }

  /** The newest input each package's last build here saw, by package folder. */
  stamps(): Map<string, number> {
    const table = this.db.prepare("select 1 from sqlite_master where type = 'table' and name = 'build_stamp'").get();
    if (!table) return new Map();
    const rows = this.db.prepare('select package_dir, newest_input from build_stamp').all() as Array<{
      package_dir: string;
      newest_input: number;
    }>;
    return new Map(rows.map((row) => [row.package_dir, row.newest_input]));
  }

  recordStamp(packageDir: string, newestInput: number): void {
    if (this.held !== 'exclusive') throw new Error('build stamps are written under the exclusive lock');
    this.db
      .prepare('insert or replace into build_stamp (package_dir, newest_input) values (?, ?)')
      .run(packageDir, newestInput);
  }

  private acquire(mode: 'shared' | 'exclusive', onWait: () => void, begin: () => void): void {
    if (this.held) throw new Error(`the build lock is already held (${this.held})`);
    try {
      begin();
    } catch (error) {
      if (!isBusy(error)) throw error;
      this.rollbackQuietly();
      onWait();
      this.db.exec(`PRAGMA busy_timeout = ${WAIT_LIMIT_MS}`);
      try {
        begin();
      } catch (retryError) {
        this.rollbackQuietly();
        if (!isBusy(retryError)) throw retryError;
        throw new Error(
          `gave up after ${WAIT_LIMIT_MS / 60_000} minutes waiting for the build lock (${this.db.location()}): ` +
            'another command of this checkout held it all that time',
        );
      } finally {
        this.db.exec('PRAGMA busy_timeout = 0');
      }
    }
    this.held = mode;
  }

  private rollbackQuietly(): void {
    if (this.db.isTransaction) this.db.exec('ROLLBACK');
  }
}

function isBusy(error: unknown): boolean {
  return ((error as { errcode?: number }).errcode ?? 0) % 256 === SQLITE_BUSY;
}
