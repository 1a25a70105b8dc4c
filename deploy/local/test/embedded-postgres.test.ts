/**
 * `npm start` on a machine with only Node: startLocalPlatform without DATABASE_URL runs the
 * embedded PostgreSQL (port 54329, data in <dataDir>/postgres), serves REST, stops cleanly, and
 * keeps its data across restarts.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EMBEDDED_PORT, EMBEDDED_URL } from '../src/embedded-postgres.js';
import { type LocalPlatform, startLocalPlatform } from '../src/local-platform.js';
import { portIsFree } from './support/ports.js';
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
  // mkdtemp makes the folder 0700; as root, PostgreSQL runs as the "postgres" user, which must enter it.
  chmodSync(dataDir, 0o755);
});

afterAll(async () => {
  await stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

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
