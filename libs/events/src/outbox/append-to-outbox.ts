import { randomUUID } from 'node:crypto';
import { currentContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type EventEnvelope, encodeEnvelope } from '../envelope/envelope-codec.js';
import { subjectFor } from '../envelope/subjects.js';
import { OutboxMessage } from './outbox-message.entity.js';

export interface AppendToOutboxInput {
  /** The service that owns the event, e.g. `accounts`; it names the subject and the stream. */
  producer: string;
  /** e.g. `account.created`. */
  eventType: string;
  organizationId: string;
  aggregateType: string;
  aggregateId: string;
  /** Fully qualified protobuf name of `payload`, e.g. `billing.events.v1.AccountChanged`. */
  payloadType: string;
  payload: Uint8Array;
  occurredAt: Date;
  /** Defaults to the current request's id. */
  requestId?: string;
  schemaVersion?: number;
}

/**
 * Records an event in the caller's unit of work. It is committed (or rolled back) with the change
 * it describes and published later by the OutboxRelay, so an event is never lost nor invented.
 */
export function appendToOutbox(em: EntityManager, input: AppendToOutboxInput): EventEnvelope {
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
  em.create(OutboxMessage, {
    id: envelope.event_id,
    subject: subjectFor(input.producer, input.eventType),
    payload: Buffer.from(encodeEnvelope(envelope)),
    createdAt: input.occurredAt,
    publishedAt: null,
    attempts: 0,
    lastError: null,
  });
  return envelope;
}
