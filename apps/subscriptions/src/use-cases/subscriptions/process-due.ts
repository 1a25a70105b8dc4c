import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import type { Logger, RequestContext } from '@billing/observability';
import { changeScope } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SubscriptionEntity } from '../../db/entities/subscription.entity.js';
import { runEngine } from './persist-outcome.js';

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
      const rows = await em.find(SubscriptionEntity, dueFilter(work), {
        orderBy: [{ due_at: 'asc' }, { id: 'asc' }],
        limit: work.batchSize,
        lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
      });
      claimedIds = rows.map((row) => row.id);
      for (const row of rows) {
        const scope = changeScope(em, 'subscriptions', row.organization_id, work.context, work.now);
        await runEngine(scope, row, () => undefined);
      }
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
