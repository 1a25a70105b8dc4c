import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The built entry points, as a container image runs them. */
export const ENTRY_POINTS = {
  accounts: `${ROOT}apps/accounts/dist/main.js`,
  gateway: `${ROOT}apps/gateway/dist/main.js`,
  subscriptions: `${ROOT}apps/subscriptions/dist/main.js`,
  invoicing: `${ROOT}apps/invoicing/dist/main.js`,
  payments: `${ROOT}apps/payments/dist/main.js`,
  analytics: `${ROOT}apps/analytics/dist/main.js`,
  admin: `${ROOT}apps/accounts/dist/admin/cli.js`,
  /** `npm start`'s entry point: the whole platform in one process. */
  start: `${ROOT}deploy/local/dist/start.js`,
} as const;

/** These tests run what was built; a missing build is a failure to fix, never a reason to skip. */
export function assertBuilt(): void {
  const missing = Object.values(ENTRY_POINTS).filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(`Not built: ${missing.join(', ')}. Run \`npx nx run-many -t build\` before these tests.`);
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildHandle {
  child: ChildProcess;
  /** Everything it wrote so far (stdout and stderr interleaved), for failure messages. */
  output(): string;
  stderr(): string;
  /** Resolves when it has exited; null while it runs. */
  exit: Promise<Exit>;
  exited(): Exit | null;
}

/**
 * Starts an entry point configured only by `env` (plus PATH), with `process.execPath`: the Node
 * running vitest (the workspace's Node 24), not whatever `node` is first on PATH. With
 * `ownProcessGroup`, it leads a process group of its own, as a command started in a terminal does,
 * so a test can signal the whole group the way Ctrl-C does. `cwd` is where it is started from (a
 * relative DATA_DIR lands there).
 */
export function startEntryPoint(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
  options: { ownProcessGroup?: boolean; cwd?: string } = {},
): ChildHandle {
  return startCommand(process.execPath, [script, ...args], { PATH: process.env.PATH ?? '', ...env }, options);
}

/** Starts `command` with exactly `env`, capturing its output; options as startEntryPoint's. */
export function startCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { ownProcessGroup?: boolean; cwd?: string } = {},
): ChildHandle {
  const child = spawn(command, args, {
    env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup ?? false,
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  let result: Exit | null = null;
  const exit = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      result = { code, signal };
      resolve(result);
    });
  });
  return { child, output: () => output, stderr: () => stderr, exit, exited: () => result };
}

/** Waits for an exit, at most `timeoutMs`; a process that overstays is killed and reported. */
export async function exitWithin(handle: ChildHandle, timeoutMs: number): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = await Promise.race([handle.exit, timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    handle.child.kill('SIGKILL');
    throw new Error(`still running after ${timeoutMs} ms; output:\n${handle.output()}`);
  }
  return outcome;
}

/** Runs a command to completion (the admin CLI) and returns its status and output. */
export function runEntryPoint(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}
