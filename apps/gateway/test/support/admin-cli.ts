import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built admin command line of the accounts service, exactly what `npm run admin` runs. */
const ADMIN_CLI = fileURLToPath(new URL('admin/cli.js', import.meta.resolve('@billing/accounts')));

/**
 * Runs the admin CLI in its own process against an accounts schema, as an operator would, and
 * returns its JSON output; a failing command throws with what it printed.
 */
export function runAdminCli(
  args: string[],
  database: { databaseUrl: string; schema: string },
  env: Record<string, string> = {},
): Promise<unknown> {
  if (!existsSync(ADMIN_CLI)) throw new Error(`${ADMIN_CLI} is missing: build @billing/accounts first.`);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [ADMIN_CLI, ...args],
      {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.databaseUrl, DB_SCHEMA: database.schema, ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`admin ${args.join(' ')} failed (${error.code}): ${stderr}`));
        resolve(JSON.parse(stdout));
      },
    );
  });
}
