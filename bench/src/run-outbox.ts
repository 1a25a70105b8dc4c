import { decodeEnvelope } from '@billing/events';
import type pg from 'pg';
import { quoteIdentifier } from './database.js';

/**
 * One organization's events of one subject in a service's outbox since a moment. The outboxes have
 * no organization column, and other runs may share the database (the bench's default one is the
 * same for everyone on the machine): the organization is read from each row's envelope. Read in
 * pages by position so that 100,000 payloads are never held at once unless asked for.
 */

export interface OutboxEvent {
  /** The event id (the outbox row's id, the consumers' inbox message_id). */
  id: string;
  /** When the producer wrote it (the moment it stamped on the event). */
  createdAt: Date;
  /** When the producer's outbox relay published it, after the writing transaction committed (null: not yet). */
  publishedAt: Date | null;
  /** What the event is about (the invoice of an invoice event). */
  aggregateId: string;
  /** The stored envelope's size. */
  bytes: number;
  /** The stored envelope, when asked for. */
  data?: Buffer;
}

const PAGE = 5_000;

export async function organizationOutboxEvents(
  db: pg.Pool,
  query: { schema: string; subject: string; organizationId: string; since: Date; withData?: boolean },
): Promise<OutboxEvent[]> {
  const events: OutboxEvent[] = [];
  for (let after = '0'; ; ) {
    const page = await db.query<{
      id: string;
      position: string;
      created_at: Date;
      published_at: Date | null;
      payload: Buffer;
    }>(
      `select id, position, created_at, published_at, payload from ${quoteIdentifier(query.schema)}.outbox
       where subject = $1 and created_at >= $2 and position > $3 order by position limit ${PAGE}`,
      [query.subject, query.since, after],
    );
    for (const row of page.rows) {
      const envelope = decodeEnvelope(row.payload);
      if (envelope.organization_id !== query.organizationId) continue;
      events.push({
        id: row.id,
        createdAt: row.created_at,
        publishedAt: row.published_at,
        aggregateId: envelope.aggregate_id,
        bytes: row.payload.length,
        ...(query.withData ? { data: row.payload } : {}),
      });
    }
    if (page.rows.length < PAGE) return events;
    after = page.rows.at(-1)!.position;
  }
}
