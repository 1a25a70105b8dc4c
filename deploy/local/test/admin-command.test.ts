/**
 * `npm run -s admin -- ...` as the README has users type it, through npm: several at once (a
 * script creating organizations) all succeed, and with the build up to date none of them rewrites
 * a file of the build the others are running.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createTestSchema, type TestSchema } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHECKOUT, runNpm } from './support/npm.js';

const TOKEN = /^[0-9a-f]{40}$/;
const CONCURRENT = 6;

let database: TestSchema;

beforeAll(async () => {
  database = await createTestSchema('admin_npm');
});

afterAll(async () => {
  await database?.drop();
});

const admin = (...args: string[]) =>
  runNpm(['run', '-s', 'admin', '--', ...args], { DATABASE_URL: database.databaseUrl, DB_SCHEMA: database.schema });

/** Every built file the admin command line runs (the accounts service and the libraries), with its mtime. */
function builtFiles(): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(path, statSync(path).mtimeMs);
    }
  };
  walk(join(CHECKOUT, 'apps', 'accounts', 'dist'));
  for (const lib of readdirSync(join(CHECKOUT, 'libs'))) walk(join(CHECKOUT, 'libs', lib, 'dist'));
  return files;
}

it('runs several `npm run -s admin -- create-org` at once, each succeeding, without rewriting the build', async () => {
  // One run first: it builds whatever is missing or stale, so the concurrent ones find it up to date.
  const first = await admin('list-orgs');
  expect({ code: first.code, stdout: first.stdout, stderr: first.stderr }).toEqual({
    code: 0,
    stdout: '[]\n',
    stderr: '',
  });
  const before = builtFiles();

  const names = Array.from({ length: CONCURRENT }, (_, index) => `Concurrent ${index + 1} ApS`);
  const results = await Promise.all(names.map((name) => admin('create-org', '--name', name, '--country', 'DK')));

  for (const [index, result] of results.entries()) {
    expect({ code: result.code, stderr: result.stderr }, result.stdout).toEqual({ code: 0, stderr: '' });
    const created = JSON.parse(result.stdout);
    expect(created.organization.name).toBe(names[index]);
    expect(created.token.token).toMatch(TOKEN);
  }
  const listed = await admin('list-orgs');
  expect(listed.code).toBe(0);
  expect(
    JSON.parse(listed.stdout)
      .map((organization: { name: string }) => organization.name)
      .sort(),
  ).toEqual([...names].sort());
  // Not one file of the build was rewritten (nor added, nor removed) while they ran.
  expect(builtFiles()).toEqual(before);
});
