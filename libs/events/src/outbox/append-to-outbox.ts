import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '../envelope/envelope-codec.js';
import { OutboxMessage } from './outbox-message.entity.js';
import { outboxRecord } from './outbox-record.js';

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
  const { envelope, record } = outboxRecord(input);
  em.create(OutboxMessage, record);
  return envelope;
}
