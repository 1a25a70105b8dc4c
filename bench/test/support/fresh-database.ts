import { randomUUID } from 'node:crypto';
import { testDatabaseUrl } from '@billing/testing';
import { ensureDatabase, quoteIdentifier, withClient } from '../../src/database.js';

/**
 * A database of its own on the test server, named `<prefix>_<random>` (the services' schemas keep
 * their production names in it); `cleanups` gets its drop (with force: a killed service's
 * connections may linger).
 */
export async function freshDatabase(prefix: string, cleanups: Array<() => Promise<unknown>>): Promise<string> {
  const url = new URL(testDatabaseUrl());
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  cleanups.push(async () => {
    const admin = new URL(url);
    admin.pathname = '/postgres';
    await withClient(admin.toString(), (client) =>
      client.query(`drop database if exists ${quoteIdentifier(name)} with (force)`),
    );
  });
  return url.toString();
}
