/**
 * `npm start` on a machine with only Node: startLocalPlatform without DATABASE_URL runs the
 * embedded PostgreSQL (port 54329, data in <dataDir>/postgres), serves REST, stops cleanly, and
 * keeps its data across restarts; Ctrl-C in a terminal stops the whole of `npm start` cleanly; and
 * it runs from a checkout only its owner may enter (a clone under /root, started as root).
 */
import { chmodSync, existsSync, lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EMBEDDED_PORT, EMBEDDED_URL } from '../src/embedded-postgres.js';
import { type LocalPlatform, startLocalPlatform } from '../src/local-platform.js';
import { assertBuilt, type ChildHandle, ENTRY_POINTS, exitWithin, startEntryPoint } from './support/entry-points.js';
import { freePort, portAcceptsConnections, portIsFree } from './support/ports.js';
import { privateCheckout } from './support/private-checkout.js';
import { accountRoundTrip, restClient } from './support/rest-client.js';

let dataDir: string;
let running: LocalPlatform | undefined;

const start = async (): Promise<LocalPlatform> => {
  running = await startLocalPlatform({ gatewayPort: 0, logLevel: 'silent', dataDir });
  return running;
};
const stop = async (): Promise<void> => {
  await running?.stop();
  running = undefined;
};

beforeAll(async () => {
  if (!(await portIsFree(EMBEDDED_PORT))) {
    throw new Error(`port ${EMBEDDED_PORT} is in use (an \`npm start\` running?): the embedded PostgreSQL needs it`);
  }
  dataDir = mkdtempSync(join(tmpdir(), 'billing-embedded-'));
  // mkdtemp makes the folder 0700; opened to all, the cluster stays in it even when started as root
  // (the last test covers a folder the "postgres" user cannot enter).
  chmodSync(dataDir, 0o755);
});

afterAll(async () => {
  await stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const BANNER = 'Press Ctrl-C to stop.\n';

/** The built `npm start` entry point, leading its own process group as a terminal's command does. */
function startNpmStart(httpPort: number): ChildHandle {
  assertBuilt();
  return startEntryPoint(ENTRY_POINTS.start, { DATA_DIR: dataDir, PORT: String(httpPort) }, [], {
    ownProcessGroup: true,
  });
}

/** Waits (bounded) for the banner; a process that exited first fails the test with its output. */
async function untilBanner(npmStart: ChildHandle): Promise<void> {
  const started = await waitFor(() => npmStart.exited() ?? npmStart.output().includes(BANNER), {
    timeoutMs: 90_000,
    intervalMs: 100,
    description: 'npm start to print its banner',
  });
  expect(started, npmStart.output()).toBe(true);
}

/** Only after a failure: nothing of a killed `npm start` may outlive the test, its PostgreSQL included. */
async function killWithItsPostgres(npmStart: ChildHandle, itsDataDir = dataDir): Promise<void> {
  if (!npmStart.exited()) {
    process.kill(-npmStart.child.pid!, 'SIGKILL');
    await npmStart.exit;
  }
  const lockFile = join(itsDataDir, 'postgres', 'postmaster.pid');
  if (existsSync(lockFile)) {
    process.kill(Number.parseInt(readFileSync(lockFile, 'utf8'), 10), 'SIGINT');
    await waitFor(() => portIsFree(EMBEDDED_PORT), {
      timeoutMs: 30_000,
      description: 'the left-over PostgreSQL to stop',
    });
  }
}

it('explains a taken port, and the next start recovers the half-initialised cluster', async () => {
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(EMBEDDED_PORT, '127.0.0.1', resolve));
  try {
    // initdb runs, then the server cannot bind: the error says why instead of rejecting with nothing.
    await expect(start()).rejects.toThrow(`port ${EMBEDDED_PORT} is taken: is another \`npm start\` running?`);
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
  // The cluster exists now but its "billing" database was never created; this start must make it.
  const platform = await start();
  expect(platform.databaseUrl).toBe(EMBEDDED_URL);
  await stop();
  expect(await portIsFree(EMBEDDED_PORT)).toBe(true);
});

it('serves REST, stops freeing its port, and keeps the data across a restart', async () => {
  const first = await start();
  const { token } = await first.createOrganization({ name: 'Embedded ApS' });
  const { created, fetched } = await accountRoundTrip(first.gatewayUrl, token, 'embedded-1');
  expect(created.status).toBe(201);
  expect(fetched).toEqual({ status: 200, body: created.body });
  await stop();
  expect(await portIsFree(EMBEDDED_PORT)).toBe(true);

  const second = await start();
  expect(await restClient(second.gatewayUrl, token).get('/api/v1/accounts/embedded-1/')).toEqual({
    status: 200,
    body: created.body,
  });
  await stop();
  expect(await portIsFree(EMBEDDED_PORT)).toBe(true);
});

it('Ctrl-C in a terminal stops the services, then PostgreSQL, and exits 0 having logged nothing', async () => {
  const httpPort = await freePort();
  const npmStart = startNpmStart(httpPort);
  try {
    await untilBanner(npmStart);
    const token = /Token {13}(\S+)/.exec(npmStart.output())![1]!;
    expect((await restClient(`http://127.0.0.1:${httpPort}`, token).get('/api/v1/accounts/')).status).toBe(200);

    // Ctrl-C: the terminal signals the whole foreground process group.
    process.kill(-npmStart.child.pid!, 'SIGINT');

    expect(await exitWithin(npmStart, 30_000), npmStart.output()).toEqual({ code: 0, signal: null });
    // Nothing between the banner and the end but our own word: no lost connection, no error.
    expect(npmStart.output().split(BANNER)[1]).toBe('\nStopping...\n');
    expect(await portIsFree(EMBEDDED_PORT)).toBe(true);
    expect(await portIsFree(httpPort)).toBe(true);
    // PostgreSQL removes its lock file only when it shut down cleanly.
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  } finally {
    await killWithItsPostgres(npmStart);
  }
});

it('Ctrl-C during start-up stops the platform once it is up, PostgreSQL included, and exits 0', async () => {
  const npmStart = startNpmStart(await freePort());
  try {
    // PostgreSQL accepting connections: the services are still to start. Probed by connecting: a
    // probe binding the port could take it at the moment PostgreSQL binds it and fail that start.
    await waitFor(async () => npmStart.exited() ?? (await portAcceptsConnections(EMBEDDED_PORT)), {
      timeoutMs: 60_000,
      intervalMs: 20,
      description: 'the embedded PostgreSQL to listen',
    });

    process.kill(-npmStart.child.pid!, 'SIGINT');

    expect(await exitWithin(npmStart, 60_000), npmStart.output()).toEqual({ code: 0, signal: null });
    expect(npmStart.output()).toBe('Stopping...\n');
    expect(await portIsFree(EMBEDDED_PORT)).toBe(true);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  } finally {
    await killWithItsPostgres(npmStart);
  }
});

it('after npm start was killed outright, the next start names the PostgreSQL left running and how to stop it', async () => {
  const npmStart = startNpmStart(await freePort());
  const lockFile = join(dataDir, 'postgres', 'postmaster.pid');
  try {
    await untilBanner(npmStart);
    process.kill(-npmStart.child.pid!, 'SIGKILL');
    await npmStart.exit;
    // PostgreSQL, in a process group of its own, is still running.
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    expect(await portIsFree(EMBEDDED_PORT)).toBe(false);

    await expect(start()).rejects.toThrow(
      `another PostgreSQL (PID ${pid}) is running on ${join(dataDir, 'postgres')}: another \`npm start\`, or one killed before it could stop it. Stop it with \`kill -INT ${pid}\`.`,
    );

    process.kill(pid, 'SIGINT');
    await waitFor(() => !existsSync(lockFile), { timeoutMs: 30_000, description: 'that PostgreSQL to stop' });
    const platform = await start();
    expect((await fetch(`${platform.gatewayUrl}/api/v1/accounts/`)).status).toBe(401);
    await stop();
  } finally {
    await killWithItsPostgres(npmStart);
  }
});

it('runs from a checkout only its owner may enter, keeping its data in .data/postgres across restarts', async () => {
  // A clone under /root: as root, PostgreSQL runs as the "postgres" user, which cannot enter it.
  const checkout = privateCheckout();
  const checkoutDataDir = join(checkout.dir, '.data');
  const databaseDir = join(checkoutDataDir, 'postgres');
  const asRoot = process.getuid?.() === 0;
  // `npm start` as typed in the copy: its built entry point, started from there with the default DATA_DIR.
  const npmStart = (httpPort: number) =>
    startEntryPoint(join(checkout.dir, 'deploy', 'local', 'dist', 'start.js'), { PORT: String(httpPort) }, [], {
      ownProcessGroup: true,
      cwd: checkout.dir,
    });
  const stopWithCtrlC = async (handle: ChildHandle) => {
    process.kill(-handle.child.pid!, 'SIGINT');
    expect(await exitWithin(handle, 30_000), handle.output()).toEqual({ code: 0, signal: null });
  };
  let cluster: string | undefined;
  let running: ChildHandle | undefined;
  try {
    const httpPort = await freePort();
    running = npmStart(httpPort);
    await untilBanner(running);
    const token = /Token {13}(\S+)/.exec(running.output())![1]!;
    const { created, fetched } = await accountRoundTrip(`http://127.0.0.1:${httpPort}`, token, 'private-1');
    // With npm start's output: CI once failed this test after 15 s without saying where.
    expect(created.status, `${JSON.stringify(created.body)}\n${running.output()}`).toBe(201);
    expect(fetched, running.output()).toEqual({ status: 200, body: created.body });
    cluster = realpathSync(databaseDir);
    if (asRoot) {
      // The cluster lives where the postgres user can reach it; .data/postgres leads there.
      expect(lstatSync(databaseDir).isSymbolicLink()).toBe(true);
      expect(cluster.startsWith('/var/lib/billing-platform/clusters/')).toBe(true);
      expect(running.output()).toContain(`Database       embedded PostgreSQL (data in .data/postgres → ${cluster})`);
    } else {
      expect(lstatSync(databaseDir).isDirectory()).toBe(true);
      expect(running.output()).toContain('Database       embedded PostgreSQL (data in .data/postgres)');
    }
    await stopWithCtrlC(running);

    // The next start finds the same data.
    running = npmStart(httpPort);
    await untilBanner(running);
    expect(
      await restClient(`http://127.0.0.1:${httpPort}`, token).get('/api/v1/accounts/private-1/'),
      running.output(),
    ).toEqual({ status: 200, body: created.body });
    expect(realpathSync(databaseDir)).toBe(cluster);
    await stopWithCtrlC(running);
  } finally {
    if (running) await killWithItsPostgres(running, checkoutDataDir);
    if (cluster && cluster !== databaseDir) rmSync(cluster, { recursive: true, force: true });
    checkout.remove();
  }
});
