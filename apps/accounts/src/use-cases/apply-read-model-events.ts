import type { Clock } from '@billing/clock';
import { AppError } from '@billing/errors';
import { decodeEnvelope, type EventEnvelope, type EventsLogger, handleEventOnce } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import type { MikroORM } from '@mikro-orm/postgresql';
import { InvalidDraftLineEvent } from '../domain/draft-line-state.js';
import { InvalidInvoiceEvent } from '../domain/invoice-state.js';
import { InvalidSubscriptionEvent } from '../domain/subscription-state.js';
import { type ReadModelFeed, readModelFeeds } from '../events/read-model-feeds.js';
import { requireOrganization } from './change-transaction.js';

export interface ReadModelDeps {
  orm: MikroORM;
  clock: Clock;
  logger: EventsLogger;
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
 */
export function applyReadModelEvents(
  deps: ReadModelDeps,
  /** Feeds beside the read models (the webhooks'), by envelope: the same events, their own inbox. */
  moreFeeds: (envelope: EventEnvelope) => ReadModelFeed[] = () => [],
): (context: RequestContext, encoded: readonly Uint8Array[]) => Promise<number> {
  const feeds = readModelFeeds(deps);
  return async (context, encoded) => {
    const organizationId = requireOrganization(context);
    const envelopes = encoded.map((bytes, index) => decodeOwnEnvelope(bytes, index, organizationId));
    let applied = 0;
    for (const [index, envelope] of envelopes.entries()) {
      const feed = feeds.get(envelope.payload_type);
      try {
        if (
          feed &&
          (await handleEventOnce({ orm: deps.orm, consumer: feed.consumer, clock: deps.clock }, envelope, feed.handle))
        ) {
          applied += 1;
        }
        for (const more of moreFeeds(envelope)) {
          await handleEventOnce({ orm: deps.orm, consumer: more.consumer, clock: deps.clock }, envelope, more.handle);
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
  };
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
