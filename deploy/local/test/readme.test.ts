/**
 * Every command the README documents, run the way a user runs it, against a started platform
 * (`npm start`'s entry point, on a database of its own): each ```sh block of README.md, read at
 * test time, runs in one bash from the checkout's root, its `npm run -s admin -- ...` lines
 * through npm exactly as typed, its curl lines against the platform. The test fails when a command
 * exits non-zero, a curl answers another HTTP status than the README shows under it (any 2xx when
 * it shows none), or an answer does not match the one the README shows (support/readme-blocks.ts
 * says how "…" reads).
 *
 * What the test fills in, and how:
 * - The block with `npm install`, `npm start` and `npm test` is the platform's own set-up, not run
 *   as a block: `npm install` made this checkout, `npm test` runs this test, and the test starts
 *   the platform with `npm start`, through npm, from the checkout's root (and stops it as Ctrl-C
 *   does).
 * - The platform runs with DATA_DIR and PORT of the test's own, exported to the blocks: the README
 *   reads them as npm start does (`${DATA_DIR:-.data}`, `${PORT:-8000}`).
 * - DATABASE_URL is the platform's, exported to the blocks: the admin command line uses it, as
 *   the README says.
 * - `<organization id>`, `<token id>` and `<bank account id>` stand for the ids the block's last
 *   `create-org`, `create-token` and `add-bank-account` printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDedicatedDatabase, type DedicatedDatabase } from './support/dedicated-database.js';
import { assertBuilt, type ChildHandle, exitWithin, startCommand } from './support/entry-points.js';
import { CHECKOUT } from './support/npm.js';
import { freePort } from './support/ports.js';
import { differences, type ReadmeBlock, readmeBlocks } from './support/readme-blocks.js';

const blocks = readmeBlocks(readFileSync(join(CHECKOUT, 'README.md'), 'utf8'));
const isSetUp = (block: ReadmeBlock) => /^(npm install|npm start|npm test)\b/m.test(block.script);
const runnable = blocks.filter((block) => !isSetUp(block));

const PLACEHOLDERS: Record<string, string> = {
  '<organization id>': '"$ORGANIZATION_ID"',
  '<token id>': '"$TOKEN_ID"',
  '<bank account id>': '"$BANK_ACCOUNT_ID"',
};

/**
 * Put before each block: `curl` and `npm` as shell functions that run the real command with the
 * same arguments, pass its output on unchanged, and log, one line per call in call order, the
 * command, its exit status, the HTTP status (curl) and the file holding its output. `npm` also
 * keeps the ids create-org, create-token and add-bank-account print, for the placeholders.
 */
const WRAPPERS = String.raw`
set -eo pipefail
curl() {
  local out code status
  out=$(mktemp "$README_LOG/out.XXXXXX")
  code=$(command curl -o "$out" -w '%{http_code}' "$@") && status=0 || status=$?
  cat "$out"
  printf 'curl\t%s\t%s\t%s\n' "$status" "$code" "$out" >> "$README_LOG/calls"
  return "$status"
}
npm() {
  local out status
  out=$(mktemp "$README_LOG/out.XXXXXX")
  command npm "$@" > "$out" && status=0 || status=$?
  cat "$out"
  printf 'npm\t%s\t-\t%s\n' "$status" "$out" >> "$README_LOG/calls"
  if [ "$status" -eq 0 ]; then
    case "$*" in
      "run -s admin -- create-org"*) ORGANIZATION_ID=$(command jq -r .organization.id "$out") ;;
      "run -s admin -- create-token"*) TOKEN_ID=$(command jq -r .id "$out") ;;
      "run -s admin -- add-bank-account"*) BANK_ACCOUNT_ID=$(command jq -r .id "$out") ;;
    esac
  fi
  return "$status"
}
`;

let database: DedicatedDatabase;
let dataDir: string;
let port: number;
let npmStart: ChildHandle | undefined;

beforeAll(async () => {
  if (spawnSync('jq', ['--version']).status !== 0) {
    throw new Error('jq is not installed: the README session uses it (apt-get install jq; .ci/run installs it)');
  }
  assertBuilt();
  database = await createDedicatedDatabase('billing_readme');
  dataDir = mkdtempSync(join(tmpdir(), 'billing-readme-'));
  port = await freePort();
  const { DB_SCHEMA: _schema, ...environment } = process.env;
  npmStart = startCommand(
    'npm',
    ['start'],
    { ...environment, DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port) },
    { cwd: CHECKOUT, ownProcessGroup: true },
  );
  const started = await waitFor(() => npmStart!.exited() ?? npmStart!.output().includes('Press Ctrl-C to stop.'), {
    timeoutMs: 90_000,
    intervalMs: 100,
    description: 'npm start to print its banner',
  });
  expect(started, npmStart.output()).toBe(true);
});

afterAll(async () => {
  try {
    if (npmStart && !npmStart.exited()) {
      // Ctrl-C: the terminal signals npm start's whole process group.
      process.kill(-npmStart.child.pid!, 'SIGINT');
      // The platform stops saying nothing but its own word; npm then ends as its script was
      // stopped, by the signal.
      expect(await exitWithin(npmStart, 30_000), npmStart.output()).toEqual({ code: null, signal: 'SIGINT' });
      expect(npmStart.output().split('Press Ctrl-C to stop.\n')[1]).toBe('\nStopping...\n');
    }
  } finally {
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
});

it('finds the README session and the administration commands to run', () => {
  expect(runnable.map((block) => block.heading)).toEqual(expect.arrayContaining(['A first session', 'Administration']));
  expect(blocks.filter(isSetUp).map((block) => block.heading)).toEqual(['Two commands']);
});

it('runs every admin command the README names, the prose included, in a block', () => {
  // `npm run -s admin -- <command>` and `npm run -s analytics-admin -- <command>` wherever the README
  // names one: each must be typed in a block this test runs, or nothing proves it works as written.
  const named = new Set(
    [...readFileSync(join(CHECKOUT, 'README.md'), 'utf8').matchAll(/npm run -s ([\w-]*admin) -- ([\w-]+)/g)].map(
      (match) => `${match[1]} ${match[2]}`,
    ),
  );
  const run = new Set(
    runnable.flatMap((block) =>
      [...block.script.matchAll(/^npm run -s ([\w-]*admin) -- ([\w-]+)/gm)].map((match) => `${match[1]} ${match[2]}`),
    ),
  );
  expect(named.size).toBeGreaterThan(10);
  expect([...named].filter((command) => !run.has(command))).toEqual([]);
});

it("has .ci/run run the README's test command", () => {
  const [setUp] = blocks.filter(isSetUp);
  const testCommand = /^(npm test)\b/m.exec(setUp!.script)?.[1];
  expect(testCommand).toBe('npm test');
  expect(readFileSync(join(CHECKOUT, '.ci', 'run'), 'utf8')).toMatch(new RegExp(`^${testCommand} `, 'm'));
});

it.each(runnable.map((block) => [block.heading, block] as const))(
  'runs the README block under "%s" as typed, each command answering what the README shows',
  async (_heading, block) => {
    const log = mkdtempSync(join(tmpdir(), 'billing-readme-log-'));
    try {
      let script = block.script;
      for (const [placeholder, value] of Object.entries(PLACEHOLDERS)) script = script.replaceAll(placeholder, value);
      writeFileSync(join(log, 'block.sh'), `${WRAPPERS}\n${script}\n`);
      writeFileSync(join(log, 'calls'), '');
      const { DB_SCHEMA: _schema, ...environment } = process.env;
      const run = await runBash(join(log, 'block.sh'), {
        ...environment,
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        PORT: String(port),
        README_LOG: log,
      });
      expect({ exit: run.code }, `${run.stdout}\n${run.stderr}`).toEqual({ exit: 0 });

      const calls = readFileSync(join(log, 'calls'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [kind, exit, status, file] = line.split('\t');
          return { kind, exit: Number(exit), status: Number(status), output: readFileSync(file!, 'utf8') };
        });
      expect(calls.map((call) => call.kind)).toEqual(block.commands.map((command) => command.kind));
      const failures = block.commands.flatMap((command, index) => {
        const call = calls[index]!;
        const problems: string[] = [];
        if (call.exit !== 0) problems.push(`exit status ${call.exit}`);
        if (command.kind === 'curl') {
          const shown = command.expected?.status;
          if (shown === undefined ? call.status < 200 || call.status > 299 : call.status !== shown) {
            problems.push(`HTTP ${call.status}, the README shows ${shown ?? 'success (2xx)'}`);
          }
        }
        if (command.expected?.body !== undefined) {
          let answer: unknown;
          try {
            answer = JSON.parse(call.output);
          } catch {
            problems.push('the answer is not JSON');
          }
          if (answer !== undefined) problems.push(...differences(answer, command.expected.body));
        }
        return problems.length > 0 ? [`${command.line}\n  ${problems.join('\n  ')}\n  answer: ${call.output}`] : [];
      });
      expect(failures).toEqual([]);
    } finally {
      rmSync(log, { recursive: true, force: true });
    }
  },
  // Each admin command is a Node start-up (about a second, several on a loaded machine).
  300_000,
);

function runBash(
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file], { cwd: CHECKOUT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
