/**
 * The benches' Postgres CPU (process-cpu.ts) on the machine's own server: a backend that works and
 * closes its connection inside the measured window is still counted (a long run's pools close idle
 * connections, and their backends' time was lost before).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { testDatabaseUrl } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postgresBackendCpu, postgresCpuSince, processCpuMicros } from '../src/process-cpu.js';

const database = `cpu_probe_${randomUUID().slice(0, 8)}`;
const admin = new pg.Client({ connectionString: testDatabaseUrl() });
const probeUrl = () => {
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${database}`;
  return url.toString();
};

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${database}`);
});

afterAll(async () => {
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
});

/** A backend of the probe database that burns some CPU; resolves with its pid and CPU once closed. */
async function workThenClose(): Promise<{ pid: number; micros: number }> {
  const client = new pg.Client({ connectionString: probeUrl() });
  await client.connect();
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  await client.query('select count(*) from generate_series(1, 3000000)');
  const micros = processCpuMicros(pid);
  await client.end();
  // Gone from /proc once the postmaster has reaped it: its time is then in the postmaster's children's.
  for (let attempt = 0; attempt < 200 && existsSync(`/proc/${pid}`); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { pid, micros };
}

it('counts the CPU of a backend that started and ended within the window', async () => {
  // A connection alive across the window, so that the probe database has a backend at the start.
  const resident = new pg.Client({ connectionString: probeUrl() });
  await resident.connect();
  try {
    const before = postgresBackendCpu(database);
    expect(before.size).toBeGreaterThan(0);
    const closed = await workThenClose();
    expect(closed.micros).toBeGreaterThan(50_000);
    const spent = postgresCpuSince(before, database);
    // At least the closed backend's time (one 10 ms tick of rounding aside); other databases'
    // closed connections may add theirs, never take it away.
    expect(spent).toBeGreaterThanOrEqual(closed.micros - 10_000);
    expect(postgresBackendCpu(database).has(closed.pid)).toBe(false);
  } finally {
    await resident.end();
  }
});
