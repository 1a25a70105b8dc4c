import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An event waiting to be published, written in the same transaction as the change it announces.
 * `id` is the event id and the JetStream message id, so a row published twice is stored once.
 * `position` orders the relay's work: uuids do not sort, and timestamps from a test clock tie. Its
 * default (set by the migrations, outbox_position_after_xid) draws from the sequence only once the
 * transaction has an id, which the relay's floor relies on (OutboxFloor).
 */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox',
  indexes: [
    {
      name: 'outbox_unpublished_idx',
      expression: 'create index "outbox_unpublished_idx" on "outbox" ("position") where "published_at" is null',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    position: p.bigint('number').autoincrement(),
    subject: p.text(),
    /** The encoded EventEnvelope, exactly the bytes that go on the bus. */
    payload: p.blob(),
    createdAt: p.datetime(),
    publishedAt: p.datetime().nullable(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    /**
     * W3C trace context (traceparent, tracestate) of the change that wrote the row, so the relay's
     * publish and the consumers' handling join its trace; null when no span was recording.
     */
    traceparent: p.text().nullable(),
    tracestate: p.text().nullable(),
  },
});

export type IOutboxMessage = InferEntity<typeof OutboxMessage>;

/** The outbox table as the relay and the bulk insert name it: schema-qualified as the ORM's queries are. */
export function outboxTable(schema: string | undefined): string {
  return schema ? `"${schema}"."outbox"` : '"outbox"';
}
