import type { EntityManager } from '@mikro-orm/postgresql';
import { activityInserts } from '../db/activity-batch-store.js';
import {
  firstInvoiceSubscriptions,
  invalidSubscriptions,
  invoiceActivityRow,
  paymentSubscriptionsBackfill,
} from '../db/invoice-activity-store.js';
import { runWrites, type SqlStatement } from '../db/sql-rows.js';
import type { ActivityRecord } from '../domain/activity-ledger.js';
import {
  type InvoiceActivityInput,
  invoiceActivityRounds,
  paymentInvoices,
  planInvoiceActivities,
  subscriptionsToCheck,
} from '../domain/invoice-activities.js';

/**
 * recordInvoiceActivity for many events at once, with the same effects as recording them one by
 * one in order: per round (invoiceActivityRounds; a consumer's batch is one), one read of the
 * invoices' first subscriptions, one of the invalid flags, and one statement for the writes: the
 * backfill of the stored payments, the insert of the activities (`seq` in order) and the statement
 * `announce` makes of the round's activities (the row each input records, as inserted: their
 * activity.created), so each round costs the organizations' lock one round trip of writes. The
 * caller holds the organizations' locks.
 */
export async function recordInvoiceActivities<T extends InvoiceActivityInput>(
  em: EntityManager,
  inputs: readonly T[],
  announce: (activities: Array<{ input: T; activity: ActivityRecord }>) => Promise<SqlStatement | null>,
): Promise<void> {
  for (const round of invoiceActivityRounds(inputs)) {
    const firstSubscription = await firstInvoiceSubscriptions(em, paymentInvoices(round));
    const invalid = await invalidSubscriptions(em, subscriptionsToCheck(round, firstSubscription));
    const { activities, backfills } = planInvoiceActivities(round, { firstSubscription, invalid });
    const rows = activities.map(({ input, subscriptionId, dropped }) =>
      invoiceActivityRow(input.organizationId, input.type, input.invoice, subscriptionId, dropped, input.at),
    );
    const news = await announce(activities.map(({ input }, index) => ({ input, activity: rows[index]! })));
    // The backfill sees the stored payments only (one statement's snapshot), as when it ran before the insert.
    await runWrites(em, [paymentSubscriptionsBackfill(backfills), activityInserts(rows), news]);
  }
}
