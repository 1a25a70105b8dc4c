import { streamNameFor } from '@billing/events';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type pg from 'pg';
import { quoteIdentifier } from './database.js';

/**
 * Waits until the platform has nothing left to do with what it was told: every outbox row of the
 * services' schemas published, and every consumer of the services' streams caught up: nothing
 * awaiting its ack (a consumer acknowledges after its transaction committed), nothing pending while
 * it has pulls waiting. A durable with messages pending and no pull waiting or in hand is either
 * between two fetches or has nobody consuming it (left on a server named by --nats-url by an
 * earlier run); so quiet means two looks in a row, `settleMs` apart, finding all of that with
 * nothing moved in between: no stream's last sequence, no consumer's delivered or acknowledged
 * sequence, no consumer's pending count. `schemas`: the services' schemas, each named as the
 * producer whose stream it feeds (`accounts` → ACCOUNTS). Workers that poll tables (mail senders)
 * are not waited for: what they write after the copy is the run's, and the staging reads one snapshot.
 */
export async function waitForQuiet(
  db: pg.Pool,
  natsUrl: string,
  schemas: readonly string[],
  options: { timeoutMs?: number; settleMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const settleMs = options.settleMs ?? 500;
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    const look = async (): Promise<string | undefined> => {
      for (const schema of schemas) {
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from ${quoteIdentifier(schema)}.outbox where published_at is null`,
        );
        if (rows[0]!.n > 0) return undefined;
      }
      const counts: string[] = [];
      for (const schema of schemas) {
        const stream = await jsm.streams.info(streamNameFor(schema)).catch((error: unknown) => {
          if (String(error).includes('stream not found')) return undefined; // nothing published yet
          throw error;
        });
        if (!stream) continue;
        counts.push(`${stream.config.name}:${stream.state.last_seq}`);
        for await (const consumer of jsm.consumers.list(stream.config.name)) {
          if (consumer.num_ack_pending > 0 || (consumer.num_pending > 0 && consumer.num_waiting > 0)) return undefined;
          counts.push(
            `${stream.config.name}/${consumer.name}:${consumer.delivered.stream_seq}:${consumer.ack_floor.stream_seq}:${consumer.num_pending}`,
          );
        }
      }
      return counts.sort().join(',');
    };
    const deadline = Date.now() + timeoutMs;
    let previous: string | undefined;
    for (;;) {
      const now = await look();
      if (now !== undefined && now === previous) return;
      previous = now;
      if (Date.now() > deadline) throw new Error(`the platform was still busy ${timeoutMs / 1000} s later`);
      await new Promise((resolve) => setTimeout(resolve, settleMs));
    }
  } finally {
    await nc.close();
  }
}
