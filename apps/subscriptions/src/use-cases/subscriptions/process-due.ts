import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import type { Logger, RequestContext } from '@billing/observability';
import { changeScope } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SubscriptionEntity, type SubscriptionRow } from '../../db/entities/subscription.entity.js';
import { contractResolversOf, loadCatalogByIds } from '../../db/subscription-catalog.js';
import { BatchWrites } from './batch-writes.js';
import { runEngine, runLoadedEngine, worldOf } from './persist-outcome.js';

export interface DueWork {
  now: Date;
  /** Test-clock organizations' rows (only for that organization) or the real clock's rows. */
  testClockOrganization: string | null;
  batchSize: number;
  context: RequestContext;
}

const RETRY_FAILED_AFTER_MS = 60 * 60 * 1000;

function dueFilter(work: DueWork) {
  return work.testClockOrganization
    ? { on_test_clock: true, organization_id: work.testClockOrganization, due_at: { $lte: work.now } }
    : { on_test_clock: false, due_at: { $lte: work.now } };
}

/**
 * Claims up to batchSize due subscriptions with FOR UPDATE SKIP LOCKED (another replica takes
 * others) and runs the engine over each, all in one transaction: a crash before commit releases
 * the claim and loses nothing; the charges' unique key stops a second charge for the same period.
 * Returns how many were claimed.
 */
export async function processDueBatch(orm: MikroORM, work: DueWork, logger?: Logger): Promise<number> {
  let claimedIds: string[] = [];
  try {
    return await inTransaction(orm, async (em) => {
      // Plain rows, converted like em.find's but not made into tracked entities (the costliest part
      // of a batch): BatchWrites writes them, not the unit of work.
      const rows: SubscriptionRow[] = await em
        .createQueryBuilder(SubscriptionEntity)
        .select('*')
        .where(dueFilter(work))
        .orderBy([{ due_at: 'asc' }, { id: 'asc' }])
        .limit(work.batchSize)
        .setLockMode(LockMode.PESSIMISTIC_PARTIAL_WRITE)
        .execute('all');
      claimedIds = rows.map((row) => row.id);
      // The batch's catalog and contracts in a few queries; all rows' writes in three statements.
      const world = worldOf(
        await loadCatalogByIds(
          em,
          rows.flatMap((row) =>
            row.scheduled_change ? [row.plan_terms_id, row.scheduled_change.terms_id] : [row.plan_terms_id],
          ),
        ),
      );
      const contractsOf = await contractResolversOf(em, rows);
      const writes = new BatchWrites();
      for (const row of rows) {
        const scope = writes.scope(em, row.organization_id, work.context, work.now);
        await runLoadedEngine(scope, row, world, contractsOf(row), () => undefined, true, writes);
      }
      await writes.write(em);
      return rows.length;
    });
  } catch (error) {
    if (claimedIds.length === 0) throw error;
    // One bad subscription must not stop the others: redo them one by one and set the bad one aside.
    logger?.warn({ err: error, count: claimedIds.length }, 'renewal batch failed; retrying one by one');
    for (const id of claimedIds) await processOne(orm, work, id, logger);
    return claimedIds.length;
  }
}

async function processOne(orm: MikroORM, work: DueWork, id: string, logger?: Logger): Promise<void> {
  try {
    await inTransaction(orm, async (em) => {
      const row = await em.findOne(
        SubscriptionEntity,
        { id, ...dueFilter(work) },
        { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      if (!row) return;
      await runEngine(
        changeScope(em, 'subscriptions', row.organization_id, work.context, work.now),
        row,
        () => undefined,
      );
    });
  } catch (error) {
    logger?.error({ err: error, subscription: id }, 'subscription renewal failed; retrying in an hour');
    await inTransaction(orm, async (em) => {
      await em.nativeUpdate(
        SubscriptionEntity,
        { id },
        { due_at: new Date(work.now.getTime() + RETRY_FAILED_AFTER_MS) },
      );
    });
  }
}

/** Everything due up to `now` for one scope of rows, batch after batch; returns the number processed. */
export async function processAllDue(
  orm: MikroORM,
  work: Omit<DueWork, 'context'> & { context?: RequestContext },
  logger?: Logger,
): Promise<number> {
  const context = work.context ?? { requestId: `scheduler-${randomUUID()}`, clientSystem: 'scheduler' };
  let total = 0;
  for (;;) {
    const claimed = await processDueBatch(orm, { ...work, context }, logger);
    total += claimed;
    if (claimed < work.batchSize) return total;
  }
}
