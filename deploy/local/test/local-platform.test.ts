/**
 * The all-in-one runner (`npm start`) on an external PostgreSQL with the in-process bus: every
 * service migrates its own schema, the gateway serves REST over real gRPC, and the demo
 * organization is seeded once per data folder.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountsModule } from '@billing/accounts';
import { analyticsModule } from '@billing/analytics';
import { invoicingModule } from '@billing/invoicing';
import { paymentsModule } from '@billing/payments';
import { subscriptionsModule } from '@billing/subscriptions';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoOrganization } from '../src/demo-organization.js';
import { type LocalPlatform, startLocalPlatform } from '../src/local-platform.js';
import { createDedicatedDatabase, type DedicatedDatabase } from './support/dedicated-database.js';
import { accountInput, accountRoundTrip, restClient } from './support/rest-client.js';

let database: DedicatedDatabase;
let dataDir: string;
let platform: LocalPlatform;
let sql: pg.Pool;

beforeAll(async () => {
  database = await createDedicatedDatabase('billing_local');
  dataDir = mkdtempSync(join(tmpdir(), 'billing-local-'));
  platform = await startLocalPlatform({ databaseUrl: database.url, gatewayPort: 0, logLevel: 'silent', dataDir });
  sql = new pg.Pool({ connectionString: database.url, max: 2 });
});

afterAll(async () => {
  await sql?.end();
  await platform?.stop();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('startLocalPlatform with DATABASE_URL and the in-process bus', () => {
  it('serves a REST round trip: POST then GET an account through the gateway', async () => {
    const { token } = await platform.createOrganization({ name: 'Round Trip ApS' });
    const { created, fetched } = await accountRoundTrip(platform.gatewayUrl, token, 'local-1');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...accountInput('local-1'), uuid: expect.any(String) });
    expect(fetched).toEqual({ status: 200, body: created.body });
    expect(platform.databaseUrl).toBe(database.url);
  });

  it('has created every service schema with all its migrations applied, and the gateway schema', async () => {
    for (const module of [accountsModule, subscriptionsModule, invoicingModule, analyticsModule, paymentsModule]) {
      const { rows } = await sql.query(`select name from "${module.name}".mikro_orm_migrations order by id`);
      expect({ schema: module.name, applied: rows.map((row) => row.name) }).toEqual({
        schema: module.name,
        applied: module.migrations.map((migration) => migration.name),
      });
    }
    const { rows } = await sql.query(
      `select table_schema, table_name from information_schema.tables where table_schema = 'gateway'
       order by table_name`,
    );
    expect(rows).toEqual([
      { table_schema: 'gateway', table_name: 'idempotency_keys' },
      { table_schema: 'gateway', table_name: 'rate_limit_windows' },
    ]);
  });
});

describe('ensureDemoOrganization', () => {
  const demoOrganizations = async () =>
    (await sql.query(`select id from accounts.organization where name = 'Demo Company'`)).rows.map((row) => row.id);

  it('seeds once: a second call with the same data folder returns the same organization and token', async () => {
    const first = await ensureDemoOrganization(platform, dataDir);
    const second = await ensureDemoOrganization(platform, dataDir);
    expect(second).toEqual(first);
    expect(await demoOrganizations()).toEqual([first.organizationId]);
    // Kept where `npm start` prints it from, readable only by its owner.
    const file = join(dataDir, 'demo-organization.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    const accounts = await restClient(platform.gatewayUrl, first.token).get('/api/v1/accounts/');
    expect(accounts.status).toBe(200);
  });

  it('makes a new demo organization when the saved token no longer works', async () => {
    const staleDir = mkdtempSync(join(tmpdir(), 'billing-local-stale-'));
    try {
      const stale = { organizationId: randomUUID(), token: 'f'.repeat(40) };
      writeFileSync(join(staleDir, 'demo-organization.json'), JSON.stringify(stale));
      const before = await demoOrganizations();
      const fresh = await ensureDemoOrganization(platform, staleDir);
      expect(fresh.organizationId).not.toBe(stale.organizationId);
      expect(fresh.token).toMatch(/^[0-9a-f]{40}$/);
      expect(await demoOrganizations()).toEqual([...before, fresh.organizationId]);
      expect(JSON.parse(readFileSync(join(staleDir, 'demo-organization.json'), 'utf8'))).toEqual(fresh);
      expect((await restClient(platform.gatewayUrl, fresh.token).get('/api/v1/accounts/')).status).toBe(200);
    } finally {
      rmSync(staleDir, { recursive: true, force: true });
    }
  });
});
