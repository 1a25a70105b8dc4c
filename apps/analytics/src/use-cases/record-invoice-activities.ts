import type { EntityManager } from '@mikro-orm/postgresql';
import {
  backfillPaymentSubscriptions,
  firstInvoiceSubscriptions,
  insertActivities,
  invalidSubscriptions,
  invoiceActivityRow,
} from '../db/invoice-activity-store.js';
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
 * invoices' first subscriptions, one of the invalid flags, one backfill of the stored payments and
 * one insert of the activities (`seq` in order). `recorded` is told each round's activities (the
 * row each input recorded, as inserted) before the next round changes any of them: their activity.created.
 * The caller holds the organizations' locks.
 */
export async function recordInvoiceActivities<T extends InvoiceActivityInput>(
  em: EntityManager,
  inputs: readonly T[],
  recorded: (activities: Array<{ input: T; activity: ActivityRecord }>) => Promise<void>,
): Promise<void> {
  for (const round of invoiceActivityRounds(inputs)) {
    const firstSubscription = await firstInvoiceSubscriptions(em, paymentInvoices(round));
    const invalid = await invalidSubscriptions(em, subscriptionsToCheck(round, firstSubscription));
    const { activities, backfills } = planInvoiceActivities(round, { firstSubscription, invalid });
    // Before the insert: an invoice activity names its subscription on the payments stored before it.
    await backfillPaymentSubscriptions(em, backfills);
    const rows = activities.map(({ input, subscriptionId, dropped }) =>
      invoiceActivityRow(input.organizationId, input.type, input.invoice, subscriptionId, dropped, input.at),
    );
    await insertActivities(em, rows);
    await recorded(activities.map(({ input }, index) => ({ input, activity: rows[index]! })));
  }
}
