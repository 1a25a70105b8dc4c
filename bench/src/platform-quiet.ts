import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type pg from 'pg';
import { quoteIdentifier } from './database.js';

/**
 * Waits until the platform has nothing left to do with what it was told: every outbox row of the
 * services' schemas published, and every durable consumer of every JetStream stream caught up
 * (nothing pending, nothing awaiting its ack: a consumer acknowledges after its transaction
 * committed). Checked until two looks in a row, `settleMs` apart, find it so with the streams'
 * message counts unchanged (a consumer's own events may be on their way to the next one).
 */
export async function waitForQuiet(
  db: pg.Pool,
  natsUrl: string,
  schemas: readonly string[],
  options: { timeoutMs?: number; settleMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const settleMs = options.settleMs ?? 300;
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
      for await (const stream of jsm.streams.list()) {
        counts.push(`${stream.config.name}:${stream.state.messages}`);
        for await (const consumer of jsm.consumers.list(stream.config.name)) {
          if (consumer.num_pending > 0 || consumer.num_ack_pending > 0) return undefined;
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
