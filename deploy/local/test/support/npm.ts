import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The checkout's root: where a user types `npm start` and `npm run -s admin -- ...`. */
export const CHECKOUT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm <args>` in `cwd` as a user's shell does: the `npm` on PATH (npm then puts the
 * workspace's Node 24 first on the script's PATH), with `env` on top of this environment.
 */
export function runNpm(args: string[], env: Record<string, string>, cwd = CHECKOUT): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}
