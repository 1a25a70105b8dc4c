/**
 * waitForQuiet (the whole-run baseline's "the platform has settled") against real Postgres and
 * NATS JetStream: an unpublished outbox row or a consumer holding a message unacknowledged keeps
 * it waiting; a durable nobody pulls from (messages pending, no pull waiting, nothing in hand)
 * does not.
 */
import { randomUUID } from 'node:crypto';
import { testDatabaseUrl, testNatsUrl } from '@billing/testing';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitForQuiet } from '../src/platform-quiet.js';

const schema = `quiet_${randomUUID().slice(0, 8)}`;
const stream = schema.toUpperCase();
let pool: pg.Pool;
let nc: NatsConnection;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  await pool.query(
    `create schema ${schema}; create table ${schema}.outbox (id int primary key, published_at timestamptz)`,
  );
  nc = await connect({ servers: testNatsUrl() });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: stream, subjects: [`${schema}.>`] });
});

afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(stream).catch(() => undefined);
  await nc.close();
  await pool.query(`drop schema if exists ${schema} cascade`);
  await pool.end();
});

const briefly = { timeoutMs: 1_500, settleMs: 100 };

it('waits while an outbox row is unpublished', async () => {
  await pool.query(`insert into ${schema}.outbox values (1, null)`);
  await expect(waitForQuiet(pool, testNatsUrl(), [schema], briefly)).rejects.toThrow(
    'the platform was still busy 1.5 s later',
  );
  await pool.query(`update ${schema}.outbox set published_at = now()`);
  await expect(waitForQuiet(pool, testNatsUrl(), [schema], briefly)).resolves.toBeUndefined();
});

it('waits for a consumer holding a message unacknowledged, not for a durable nobody pulls from', async () => {
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  await jsm.consumers.add(stream, { durable_name: 'abandoned', ack_policy: AckPolicy.Explicit });
  await jsm.consumers.add(stream, { durable_name: 'working', ack_policy: AckPolicy.Explicit });
  await js.publish(`${schema}.thing.happened`, 'one');
  // Both durables have the message pending; nobody pulls from either.
  await expect(waitForQuiet(pool, testNatsUrl(), [schema], briefly)).resolves.toBeUndefined();

  const working = await js.consumers.get(stream, 'working');
  const message = await working.next({ expires: 1_000 });
  expect(message?.string()).toBe('one');
  await expect(waitForQuiet(pool, testNatsUrl(), [schema], briefly)).rejects.toThrow('still busy');
  await message!.ackAck();
  await expect(waitForQuiet(pool, testNatsUrl(), [schema], briefly)).resolves.toBeUndefined();
});
