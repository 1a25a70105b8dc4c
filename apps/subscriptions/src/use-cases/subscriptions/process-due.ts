import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import type { EventEnvelope } from '@billing/events';
import type { Logger, RequestContext } from '@billing/observability';
import { type CommittedEventsListener, changeScope } from '@billing/runtime';
import { raw } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SubscriptionEntity } from '../../db/entities/subscription.entity.js';
import { loadOrganizationMoney } from '../../db/organization-money-store.js';
import { contractResolversOf, loadCatalogByIds, termsIdsOf } from '../../db/subscription-catalog.js';
import { claimDueSubscriptions, type DueScope, dueFilter, dueLockMode } from '../../db/subscription-store.js';
import { BatchWrites } from './batch-writes.js';
import { runEngine, runLoadedEngine, worldOf } from './persist-outcome.js';

export interface DueWork extends DueScope {
  batchSize: number;
  context: RequestContext;
}

/** Who is told about processing besides the database: the log, and the listener of committed events. */
export interface DueHooks {
  logger?: Logger | undefined;
  /** Told each committed transaction's events, one call per organization (see handOver). */
  committedEvents?: CommittedEventsListener | undefined;
}

const RETRY_FAILED_AFTER_MS = 60 * 60 * 1000;

/**
 * Claims up to batchSize due subscriptions (claimDueSubscriptions: the scheduler skips rows another
 * transaction holds, the test clock waits for them) and runs the engine over each, all in one
 * transaction: a crash before commit releases the claim and loses nothing; the charges' unique key
 * stops a second charge for the same period. Returns how many were claimed and the committed
 * events still to go to `hooks.committedEvents` (handOver).
 */
async function processDueBatch(
  orm: MikroORM,
  work: DueWork,
  hooks: DueHooks = {},
): Promise<{ claimed: number; committed: readonly EventEnvelope[] }> {
  let claimedIds: string[] = [];
  let committed: readonly EventEnvelope[] = [];
  let claimed: number;
  try {
    claimed = await inTransaction(orm, async (em) => {
      // Untracked rows: BatchWrites writes them, not the unit of work.
      const rows = await claimDueSubscriptions(em, work, work.batchSize);
      claimedIds = rows.map((row) => row.id);
      // The batch's catalog and contracts in a few queries; all rows' writes in three statements.
      const world = worldOf(
        await loadCatalogByIds(em, rows.flatMap(termsIdsOf)),
        await loadOrganizationMoney(
          em,
          rows.map((row) => row.organization_id),
        ),
      );
      const contractsOf = await contractResolversOf(em, rows);
      const writes = new BatchWrites();
      for (const row of rows) {
        const scope = writes.scope(em, row.organization_id, work.context, work.now);
        await runLoadedEngine(scope, row, world, contractsOf(row), () => undefined, true, writes);
      }
      await writes.write(em);
      committed = writes.envelopes;
      return rows.length;
    });
  } catch (error) {
    if (claimedIds.length === 0) throw error;
    // One bad subscription must not stop the others: redo them one by one and set the bad one aside.
    hooks.logger?.warn({ err: error, count: claimedIds.length }, 'renewal batch failed; retrying one by one');
    for (const id of claimedIds) await processOne(orm, work, id, hooks);
    return { claimed: claimedIds.length, committed: [] };
  }
  return { claimed, committed };
}

async function processOne(orm: MikroORM, work: DueWork, id: string, hooks: DueHooks): Promise<void> {
  let published: EventEnvelope[] = [];
  try {
    await inTransaction(orm, async (em) => {
      published = [];
      const row = await em.findOne(SubscriptionEntity, { id, ...dueFilter(work) }, { lockMode: dueLockMode(work) });
      if (!row) return;
      await runEngine(
        changeScope(em, 'subscriptions', row.organization_id, work.context, work.now, published),
        row,
        () => undefined,
      );
    });
  } catch (error) {
    hooks.logger?.error({ err: error, subscription: id }, 'subscription renewal failed; retrying in an hour');
    await inTransaction(orm, async (em) => {
      // A committed change of the row like any other: its version grows too.
      await em.nativeUpdate(
        SubscriptionEntity,
        { id },
        { due_at: new Date(work.now.getTime() + RETRY_FAILED_AFTER_MS), version: raw('version + 1') },
      );
    });
    return;
  }
  await handOver(published, work.context, hooks.committedEvents);
}

/**
 * Tells the listener a committed transaction's events, one call per organization: a batch holds
 * many organizations' rows, and the receiver (accounts' ApplyEvents) takes the organization of a
 * call from its context, as for any other call. Calls for different organizations run together.
 */
async function handOver(
  events: readonly EventEnvelope[],
  context: RequestContext,
  listener: CommittedEventsListener | undefined,
): Promise<void> {
  if (!listener || events.length === 0) return;
  const byOrganization = new Map<string, EventEnvelope[]>();
  for (const event of events) {
    const group = byOrganization.get(event.organization_id);
    if (group) group.push(event);
    else byOrganization.set(event.organization_id, [event]);
  }
  await Promise.all(
    [...byOrganization].map(([organizationId, group]) => listener(group, { ...context, organizationId })),
  );
}

/**
 * Everything due up to `now` for one scope of rows, batch after batch; returns the number processed
 * once every batch's events were handed to `hooks.committedEvents` (ProcessDue, a test clock's due
 * work, gives one; the renewal scheduler none). A batch's hand-over runs while the next batch is
 * processed (the read model's answer took as long as a batch of 200 renewals), one hand-over at a
 * time, in commit order.
 */
export async function processAllDue(
  orm: MikroORM,
  work: Omit<DueWork, 'context'> & { context?: RequestContext },
  hooks: DueHooks = {},
): Promise<number> {
  const context = work.context ?? { requestId: `scheduler-${randomUUID()}`, clientSystem: 'scheduler' };
  let total = 0;
  let handingOver: Promise<void> = Promise.resolve();
  // A listener must not throw; should one, its error is the answer once the hand-overs ended.
  let failed: { error: unknown } | undefined;
  try {
    for (;;) {
      const { claimed, committed } = await processDueBatch(orm, { ...work, context }, hooks);
      handingOver = handingOver
        .then(() => handOver(committed, context, hooks.committedEvents))
        .catch((error: unknown) => {
          failed ??= { error };
        });
      total += claimed;
      if (claimed < work.batchSize) break;
    }
  } finally {
    await handingOver;
  }
  if (failed) throw failed.error;
  return total;
}
