import type { Clock } from '@billing/clock';
import { inTransaction } from '@billing/db';
import { AppError } from '@billing/errors';
import {
  decodeEnvelope,
  type EventEnvelope,
  type EventsLogger,
  handleEventOnce,
  type InboxEntry,
  recordInboxRows,
} from '@billing/events';
import type { RequestContext } from '@billing/observability';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { InvalidDraftLineEvent } from '../domain/draft-line-state.js';
import { InvalidInvoiceEvent } from '../domain/invoice-state.js';
import { InvalidSubscriptionEvent } from '../domain/subscription-state.js';
import { type ReadModelFeed, readModelFeeds } from '../events/read-model-feeds.js';
import { requireOrganization } from './change-transaction.js';
import type { HandedOverEvents } from './handed-over-events.js';

export interface ReadModelDeps {
  orm: MikroORM;
  clock: Clock;
  logger: EventsLogger;
  /** Told the inbox rows a hand-over committed, so that the durable consumers skip their copies. */
  handedOver?: HandedOverEvents;
}

/**
 * The events of a change another service just committed, handed over by that service so that its
 * caller reads the change back from accounts at once. Each is applied through the inbox under the
 * durable consumer's name, so the copy JetStream delivers later (or delivered already) is a no-op.
 *
 * Every envelope must be of the calling organization: a service may only hand over its caller's
 * events. All are checked before any is applied. Events of a kind no read model here reads are
 * ignored. Returns how many were applied now to a read model. `moreFeeds` (the webhooks') take the
 * same events through their own inbox names.
 *
 * The whole list is applied in one transaction: the inbox rows of every feed by one statement,
 * then each feed's new events set-based (its handleBatch). When that fails, each event is applied
 * on its own as the durable consumers would (so an unusable event is named, and the ones before it
 * are applied, as they would be by the stream).
 */
export function applyReadModelEvents(
  deps: ReadModelDeps,
  /** Feeds beside the read models (the webhooks'), by envelope: the same events, their own inbox. */
  moreFeeds: (envelope: EventEnvelope) => ReadModelFeed[] = () => [],
): (context: RequestContext, encoded: readonly Uint8Array[]) => Promise<number> {
  const feeds = readModelFeeds(deps);
  const feedsOf = (envelope: EventEnvelope) => {
    const feed = feeds.get(envelope.payload_type);
    return { readModel: feed ?? null, more: moreFeeds(envelope) };
  };
  return async (context, encoded) => {
    const organizationId = requireOrganization(context);
    const envelopes = encoded.map((bytes, index) => decodeOwnEnvelope(bytes, index, organizationId));
    try {
      const { applied, entries } = await inTransaction(deps.orm, (em) => applyAll(deps, em, envelopes, feedsOf));
      // Committed: every entry's inbox row is there now (inserted here, or found there).
      deps.handedOver?.committed(entries.map(({ consumer, envelope }) => ({ consumer, eventId: envelope.event_id })));
      return applied;
    } catch (error) {
      deps.logger.debug({ err: error, count: envelopes.length }, 'handed-over events failed together; one by one');
    }
    return applyOneByOne(deps, envelopes, feedsOf);
  };
}

type FeedsOf = (envelope: EventEnvelope) => { readModel: ReadModelFeed | null; more: ReadModelFeed[] };

/**
 * In one transaction: every feed's inbox rows by one statement, then each feed's new events at
 * once. Returns how many were applied to a read model, and every inbox entry of the list.
 */
async function applyAll(
  deps: ReadModelDeps,
  em: EntityManager,
  envelopes: readonly EventEnvelope[],
  feedsOf: FeedsOf,
): Promise<{ applied: number; entries: InboxEntry[] }> {
  const feeds = new Map<string, ReadModelFeed>();
  const readModelConsumers = new Set<string>();
  const entries: InboxEntry[] = [];
  for (const envelope of envelopes) {
    const { readModel, more } = feedsOf(envelope);
    if (readModel) readModelConsumers.add(readModel.consumer);
    for (const feed of readModel ? [readModel, ...more] : more) {
      feeds.set(feed.consumer, feed);
      entries.push({ consumer: feed.consumer, envelope });
    }
  }
  const fresh = await recordInboxRows(em, entries, deps.clock);
  const freshOf = new Map<string, EventEnvelope[]>();
  for (const { consumer, envelope } of fresh) freshOf.set(consumer, [...(freshOf.get(consumer) ?? []), envelope]);
  let applied = 0;
  // Feed after feed, in the order their first events came; each feed's events in their order.
  for (const [consumer, events] of freshOf) {
    await feeds.get(consumer)!.handleBatch(em, events);
    if (readModelConsumers.has(consumer)) applied += events.length;
  }
  return { applied, entries };
}

/** Each event on its own, each feed in its own transaction, as the durable consumers handle them. */
async function applyOneByOne(
  deps: ReadModelDeps,
  envelopes: readonly EventEnvelope[],
  feedsOf: FeedsOf,
): Promise<number> {
  let applied = 0;
  for (const [index, envelope] of envelopes.entries()) {
    const { readModel, more } = feedsOf(envelope);
    try {
      if (
        readModel &&
        (await handleEventOnce(
          { orm: deps.orm, consumer: readModel.consumer, clock: deps.clock },
          envelope,
          readModel.handle,
        ))
      ) {
        applied += 1;
      }
      for (const feed of more) {
        await handleEventOnce({ orm: deps.orm, consumer: feed.consumer, clock: deps.clock }, envelope, feed.handle);
      }
    } catch (error) {
      if (
        error instanceof InvalidSubscriptionEvent ||
        error instanceof InvalidDraftLineEvent ||
        error instanceof InvalidInvoiceEvent
      ) {
        throw AppError.invalidField('envelopes', `envelopes[${index}]: ${error.message}`);
      }
      throw error;
    }
  }
  return applied;
}

function decodeOwnEnvelope(bytes: Uint8Array, index: number, organizationId: string): EventEnvelope {
  let envelope: EventEnvelope;
  try {
    envelope = decodeEnvelope(bytes);
  } catch (error) {
    throw AppError.invalidField('envelopes', `envelopes[${index}]: ${(error as Error).message}`);
  }
  if (envelope.organization_id !== organizationId) {
    throw AppError.invalidField(
      'envelopes',
      `envelopes[${index}] (event ${envelope.event_id}) is not an event of the calling organization.`,
    );
  }
  return envelope;
}
