import { randomUUID } from 'node:crypto';
import { byteSlices, executeBound, pgArray } from '@billing/db';
import { currentContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type EventEnvelope, encodeEnvelope } from '../envelope/envelope-codec.js';
import { subjectFor } from '../envelope/subjects.js';
import { noteOutboxRowsInserted } from '../relay/wake-on-outbox-commit.js';
import { traceContextToStore } from '../support/message-tracing.js';
import type { AppendToOutboxInput } from './append-to-outbox.js';
import { outboxTable } from './outbox-message.entity.js';

/** An unpublished outbox row as written: the event id, its subject and the encoded envelope. */
export interface OutboxRecord {
  id: string;
  subject: string;
  payload: Buffer;
  createdAt: Date;
  publishedAt: null;
  attempts: 0;
  lastError: null;
  /** The writer's trace context (see OutboxMessage), null outside a trace. */
  traceparent: string | null;
  tracestate: string | null;
}

/** The envelope of an event and the outbox row that carries it (what appendToOutbox stores). */
export function outboxRecord(input: AppendToOutboxInput): { envelope: EventEnvelope; record: OutboxRecord } {
  const envelope: EventEnvelope = {
    event_id: randomUUID(),
    event_type: input.eventType,
    schema_version: input.schemaVersion ?? 1,
    organization_id: input.organizationId,
    occurred_at: input.occurredAt,
    request_id: input.requestId ?? currentContext()?.requestId ?? '',
    aggregate_type: input.aggregateType,
    aggregate_id: input.aggregateId,
    payload_type: input.payloadType,
    payload: Buffer.from(input.payload),
  };
  const record: OutboxRecord = {
    id: envelope.event_id,
    subject: subjectFor(input.producer, input.eventType),
    payload: Buffer.from(encodeEnvelope(envelope)),
    createdAt: input.occurredAt,
    publishedAt: null,
    attempts: 0,
    lastError: null,
    ...traceContextToStore(),
  };
  return { envelope, record };
}

/**
 * Inserts many outbox rows in one statement, in the caller's transaction and in the given order
 * (the relay publishes by insertion position), bypassing the unit of work: for writers that
 * produce hundreds of events per transaction (the subscriptions scheduler's batches). The relay is
 * woken when the transaction commits, as for rows of the unit of work.
 */
export async function insertOutboxRecords(em: EntityManager, records: readonly OutboxRecord[]): Promise<void> {
  const insert = outboxInsert(em, records);
  if (insert) await executeBound(em, insert.sql, insert.params, { prepared: true });
}

/**
 * insertOutboxRecords as a statement (`?` placeholders) for the caller to run in its transaction,
 * alone or as a WITH query of its other writes (one round trip for a batch's writes instead of
 * two); null for no records. Bound (executeBound): eight values whatever the batch, one array per
 * column and the payloads as one run of bytes that each row takes its slice of (`substring` by
 * offset and length), so Postgres parses and plans the same short statement for 1 row or 1,000: a
 * VALUES list of nine values a row cost it half as much again as the insert itself (35 % less of
 * its CPU for 1,000 rows of 700 bytes, README "Twenty-fifth session"). The rows go in in the
 * given order (`order by` the arrays' ordinality), which numbers their positions. The relay is
 * told to wake when the transaction commits; if the statement is not run, that wake finds
 * nothing, as a poll does. The payloads of one statement stay below Postgres' 1 GB for a value.
 */
export function outboxInsert(
  em: EntityManager,
  records: readonly OutboxRecord[],
): { sql: string; params: unknown[] } | null {
  if (records.length === 0) return null;
  noteOutboxRowsInserted(em);
  const payloads = byteSlices(records.map((record) => record.payload));
  return {
    sql: `insert into ${outboxTable(em.config.get('schema'))}
       (id, subject, payload, created_at, published_at, attempts, last_error, traceparent, tracestate)
     select r.id, r.subject, substring(?::bytea from r.start for r.length), r.created_at, null, 0, null,
            r.traceparent, r.tracestate
       from unnest(?::uuid[], ?::text[], ?::int[], ?::int[], ?::timestamptz[], ?::text[], ?::text[])
            with ordinality as r(id, subject, start, length, created_at, traceparent, tracestate, n)
      order by r.n`,
    params: [
      payloads.bytes,
      pgArray(records.map((record) => record.id)),
      pgArray(records.map((record) => record.subject)),
      payloads.starts,
      payloads.lengths,
      pgArray(records.map((record) => record.createdAt)),
      pgArray(records.map((record) => record.traceparent)),
      pgArray(records.map((record) => record.tracestate)),
    ],
  };
}
