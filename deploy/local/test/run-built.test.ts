/**
 * scripts/run-built.ts (behind `npm run admin` and `npm start`) on a workspace of its own, so its
 * builds rewrite nothing the other tests run: a stale build is made once however many commands find
 * it stale together, and never while another command runs the build it would rewrite.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHECKOUT } from './support/npm.js';

let workspace: string;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
const greetingSource = () => join(workspace, 'packages', 'greeting', 'src', 'index.ts');
const greetingOutput = () => join(workspace, 'packages', 'greeting', 'dist', 'index.js');

/**
 * Two packages, @demo/app importing @demo/greeting, built like this repository's (tsc -p
 * tsconfig.build.json, src/ to dist/), with this repository's scripts/ and its TypeScript.
 */
beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'billing-run-built-'));
  cpSync(join(CHECKOUT, 'scripts'), join(workspace, 'scripts'), { recursive: true });
  write(
    join(workspace, 'package.json'),
    json({ name: 'demo', private: true, type: 'module', workspaces: ['packages/*'] }),
  );
  write(
    join(workspace, 'tsconfig.base.json'),
    json({
      compilerOptions: { target: 'es2023', module: 'nodenext', strict: true, declaration: true, types: ['node'] },
    }),
  );
  const tsconfigBuild = json({
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: 'src', outDir: 'dist' },
    include: ['src'],
  });
  write(
    join(workspace, 'packages', 'greeting', 'package.json'),
    json({ name: '@demo/greeting', type: 'module', exports: { '.': './dist/index.js' } }),
  );
  write(join(workspace, 'packages', 'greeting', 'tsconfig.build.json'), tsconfigBuild);
  write(greetingSource(), "export const greeting = 'hello 1';\n");
  write(
    join(workspace, 'packages', 'app', 'package.json'),
    json({ name: '@demo/app', type: 'module', dependencies: { '@demo/greeting': '*' } }),
  );
  write(join(workspace, 'packages', 'app', 'tsconfig.build.json'), tsconfigBuild);
  // Prints the greeting; with `hold <file>`, then runs until that file exists.
  write(
    join(workspace, 'packages', 'app', 'src', 'main.ts'),
    [
      "import { existsSync } from 'node:fs';",
      "import { greeting } from '@demo/greeting';",
      'console.log(greeting);',
      "if (process.argv[2] === 'hold') {",
      '  const release = process.argv[3]!;',
      '  await new Promise<void>((resolve) => {',
      '    const timer = setInterval(() => existsSync(release) && (clearInterval(timer), resolve()), 20);',
      '  });',
      '}',
      '',
    ].join('\n'),
  );
  const modules = join(workspace, 'node_modules');
  mkdirSync(join(modules, '@demo'), { recursive: true });
  mkdirSync(join(modules, '@types'), { recursive: true });
  symlinkSync(join(CHECKOUT, 'node_modules', 'typescript'), join(modules, 'typescript'));
  symlinkSync(join(CHECKOUT, 'node_modules', '@types', 'node'), join(modules, '@types', 'node'));
  symlinkSync(join('..', '..', 'packages', 'greeting'), join(modules, '@demo', 'greeting'));
  symlinkSync(join('..', '..', 'packages', 'app'), join(modules, '@demo', 'app'));
});

afterAll(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

/** `node scripts/run-built.ts @demo/app dist/main.js ...args` in the workspace, with the workspace's Node. */
function runApp(...args: string[]): Run {
  const child = spawn(process.execPath, ['scripts/run-built.ts', '@demo/app', 'dist/main.js', ...args], {
    cwd: workspace,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function finished(run: Run) {
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

const builds = (stderr: string, name: string) =>
  stderr.split('\n').filter((line) => line === `Building ${name}...`).length;

it('builds what is missing, dependencies first, then runs the entry with its arguments', async () => {
  expect(await finished(runApp())).toEqual({
    code: 0,
    stdout: 'hello 1\n',
    stderr: 'Building @demo/greeting...\nBuilding @demo/app...\n',
  });
  // Up to date now: nothing is built, nothing is said.
  expect(await finished(runApp())).toEqual({ code: 0, stdout: 'hello 1\n', stderr: '' });
});

it('rebuilds a changed package once when several commands find it stale together', async () => {
  writeFileSync(greetingSource(), "export const greeting = 'hello 2';\n");

  const results = await Promise.all(Array.from({ length: 5 }, () => finished(runApp())));

  expect(results.map((result) => ({ code: result.code, stdout: result.stdout }))).toEqual(
    Array.from({ length: 5 }, () => ({ code: 0, stdout: 'hello 2\n' })),
  );
  const stderr = results.map((result) => result.stderr).join('');
  expect({ greeting: builds(stderr, '@demo/greeting'), app: builds(stderr, '@demo/app') }).toEqual({
    greeting: 1,
    app: 0,
  });
});

it('waits for a running command to finish before rewriting the build it runs', async () => {
  const release = join(workspace, 'release');
  const running = runApp('hold', release);
  await waitFor(() => running.stdout() === 'hello 2\n', { timeoutMs: 30_000, description: 'the first command to run' });
  const builtBefore = { text: readFileSync(greetingOutput(), 'utf8'), mtime: statSync(greetingOutput()).mtimeMs };
  writeFileSync(greetingSource(), "export const greeting = 'hello 3';\n");

  const next = runApp();
  await waitFor(() => next.stderr().includes('Waiting for the commands running the current build to finish...'), {
    timeoutMs: 30_000,
    description: 'the second command to wait for the first',
  });
  // While the first runs, its build stays as it was.
  expect({ text: readFileSync(greetingOutput(), 'utf8'), mtime: statSync(greetingOutput()).mtimeMs }).toEqual(
    builtBefore,
  );
  expect(running.child.exitCode).toBeNull();

  writeFileSync(release, '');
  expect(await finished(running)).toEqual({ code: 0, stdout: 'hello 2\n', stderr: '' });
  expect(await finished(next)).toEqual({
    code: 0,
    stdout: 'hello 3\n',
    stderr: 'Waiting for the commands running the current build to finish...\nBuilding @demo/greeting...\n',
  });
});

it('passes the exit status of the entry on, and says why when a build fails', async () => {
  writeFileSync(greetingSource(), 'export const greeting: number = "not a number";\n');
  const failed = await finished(runApp());
  expect({ code: failed.code, stdout: failed.stdout }).toEqual({ code: 1, stdout: '' });
  expect(failed.stderr).toContain(
    'the build of @demo/greeting (packages/greeting: tsc -p tsconfig.build.json) failed:',
  );
  expect(failed.stderr).toContain("Type 'string' is not assignable to type 'number'.");
});
