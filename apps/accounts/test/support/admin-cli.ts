import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built CLI, exactly what `npm run admin` runs. */
export const ADMIN_CLI = fileURLToPath(new URL('../../dist/admin/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Fails (never skips) when the build is missing: the test is about the shipped entry point. */
export function assertCliBuilt(): void {
  if (!existsSync(ADMIN_CLI)) {
    throw new Error(`${ADMIN_CLI} is missing: run \`npx nx run @billing/accounts:build\` before these tests.`);
  }
}

/**
 * Runs the CLI as an operator would: its own process, configured only by DATABASE_URL and DB_SCHEMA.
 * `process.execPath` is the Node that runs vitest (the workspace's Node 24), not whatever `node` is
 * on PATH.
 */
export function runAdminCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [ADMIN_CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}
