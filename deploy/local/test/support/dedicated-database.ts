import { testDatabaseUrl, uniqueName } from '@billing/testing';
import pg from 'pg';

export interface DedicatedDatabase {
  /** Connection string of the new database, on the test server. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function onServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A whole database of its own on the test server. The local runner uses fixed schema names
 * (accounts, subscriptions, …, gateway), so a throwaway schema cannot isolate it; a database can.
 */
export async function createDedicatedDatabase(prefix: string): Promise<DedicatedDatabase> {
  const name = uniqueName(prefix);
  const admin = new URL(testDatabaseUrl());
  admin.pathname = '/postgres';
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  await onServer(admin.toString(), `create database "${name}"`);
  return {
    url: url.toString(),
    name,
    // WITH (FORCE) ends connections a failed test may have left open (PostgreSQL 13+).
    drop: () => onServer(admin.toString(), `drop database if exists "${name}" with (force)`),
  };
}
