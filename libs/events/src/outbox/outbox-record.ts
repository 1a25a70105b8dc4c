import { randomUUID } from 'node:crypto';
import { executeBound } from '@billing/db';
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
  if (insert) await executeBound(em, insert.sql, insert.params);
}

/**
 * insertOutboxRecords as a statement (`?` placeholders) for the caller to run in its transaction,
 * alone or as a WITH query of its other writes (one round trip for a batch's writes instead of
 * two); null for no records. Bound (executeBound): the payloads go as bytes, not as hex written
 * into the statement's text (past 65,535 values executeBound writes them into the text). One
 * VALUES list numbers its rows' positions in its order. The relay is told to wake when the
 * transaction commits; if the statement is not run, that wake finds nothing, as a poll does.
 */
export function outboxInsert(
  em: EntityManager,
  records: readonly OutboxRecord[],
): { sql: string; params: unknown[] } | null {
  if (records.length === 0) return null;
  noteOutboxRowsInserted(em);
  return {
    sql: `insert into ${outboxTable(em.config.get('schema'))}
       (id, subject, payload, created_at, published_at, attempts, last_error, traceparent, tracestate)
     values ${records.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    params: records.flatMap((record) => [
      record.id,
      record.subject,
      record.payload,
      record.createdAt,
      record.publishedAt,
      record.attempts,
      record.lastError,
      record.traceparent,
      record.tracestate,
    ]),
  };
}
