import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  accountActivityInserts,
  accountActivityUpdates,
  derivedAccountActivities,
  subscriptionStartsOfAccounts,
} from '../db/account-activity-batch-store.js';
import { activitiesInScope, activityInserts, activityUpdates, churnReasonNames } from '../db/activity-batch-store.js';
import { runWrites, type SqlStatement } from '../db/sql-rows.js';
import { lockSubscriptionMrrs, mrrTotalsMoves, subscriptionMrrSaves } from '../db/subscription-mrr-batch-store.js';
import { heldRateOf } from '../db/subscription-mrr-store.js';
import { AccountActivityLedger } from '../domain/account-activity-ledger.js';
import type { ActivityContext } from '../domain/activity-columns.js';
import { ActivityLedger, type ActivityRecord } from '../domain/activity-ledger.js';
import { rateActivities, ratePlanned } from '../domain/activity-rates.js';
import { activitiesOfChange, type SubscriptionChange } from '../domain/subscription-activities.js';
import {
  type MrrTotalsChange,
  mrrFigures,
  mrrTotalsChange,
  type SubscriptionMrrColumns,
  subscriptionMrrColumns,
  sumOfTotalsChanges,
} from '../domain/subscription-mrr.js';
import type { SubscriptionRecord } from '../domain/subscription-record.js';
import { organizationsSettings } from './organization-settings.js';

/** One subscription.changed as recordSubscriptionChange takes it. */
export interface SubscriptionChangeInput {
  organizationId: string;
  change: SubscriptionChange;
  record: SubscriptionRecord;
  /** The event's moment. */
  now: Date;
}

const accountKey = (organizationId: string, accountId: string) => `${organizationId}/${accountId}`;
const subscriptionRef = (item: SubscriptionChangeInput) => ({
  organizationId: item.organizationId,
  subscriptionId: item.record.uuid,
});

/**
 * Changes of distinct subscriptions, in the consumer's transaction, with the same effects as
 * recordSubscriptionChange applied to each in order, read and written set-wise: the stored state
 * they touch is read once (the subscriptions' MRR rows locked, their accounts' activities and
 * derived account activities), the changes are applied to it in memory one after the other (an
 * account with two changed subscriptions is derived again after each, as one by one), and what
 * changed is written with one statement, together with the statement `announce` makes of the
 * activities each change recorded that count (those activity.created announces), in recording
 * order, as the ledger holds them: as written (no later change of the chunk touches them: each
 * names another subscription).
 */
export async function recordSubscriptionChanges(
  em: EntityManager,
  changes: readonly SubscriptionChangeInput[],
  announce: (announced: ActivityRecord[][]) => Promise<SqlStatement | null>,
): Promise<void> {
  if (new Set(changes.map((item) => item.record.uuid)).size !== changes.length) {
    throw new Error('recordSubscriptionChanges takes each subscription once');
  }
  const settings = await organizationsSettings(
    em,
    changes.map((item) => item.organizationId),
  );
  const storedMrr = await lockSubscriptionMrrs(
    em,
    changes.map((item) => item.record.uuid),
  );
  const outcomes = changes.map((item) => activitiesOfChange(item.change));
  const accounts = [
    ...new Map(
      changes.map((item) => [
        accountKey(item.organizationId, item.record.account),
        { organizationId: item.organizationId, accountId: item.record.account },
      ]),
    ).values(),
  ];
  const stored = await activitiesInScope(em, {
    accounts,
    subscriptions: changes.map(subscriptionRef),
    droppingAll: changes.filter((_, i) => outcomes[i]!.dropAll).map(subscriptionRef),
  });
  const reasons = new Map<string, { organizationId: string; reasonId: string }>();
  const namedReason = (organizationId: string, reasonId: string | null) => {
    if (reasonId) reasons.set(accountKey(organizationId, reasonId), { organizationId, reasonId });
  };
  for (const { record } of stored) namedReason(record.organization_id, record.churn_reason);
  for (const item of changes) namedReason(item.organizationId, item.change.subscription.churn_reason);
  const reasonNames = await churnReasonNames(em, [...reasons.values()]);
  const activities = new ActivityLedger(stored, randomUUID);
  const accountActivities = new AccountActivityLedger(await derivedAccountActivities(em, accounts), randomUUID);
  const starts = new SubscriptionStarts(await subscriptionStartsOfAccounts(em, accounts));

  const mrrRows = new Map<string, SubscriptionMrrColumns & { id: string }>();
  const totals = new Map<string, MrrTotalsChange[]>();
  const announced: ActivityRecord[][] = [];
  changes.forEach(({ organizationId, change, record, now }, i) => {
    const outcome = outcomes[i]!;
    const organization = settings.get(organizationId)!;
    const rateAt = organization.rateAt(record.pricing.currency);
    const storedRow = storedMrr.get(record.uuid) ?? null;
    const held = storedRow ? heldRateOf(storedRow) : rateAt(change.effective_at);
    const context: ActivityContext = {
      organizationId,
      accountId: record.account,
      subscriptionId: record.uuid,
      baseCurrency: organization.base,
      churnReason: change.subscription.churn_reason,
      customChurnReason: change.subscription.custom_churn_reason,
      now,
    };
    const recorded: string[] = [];
    const save = (activity: Parameters<ActivityLedger['save']>[0]) => {
      const id = activities.save(activity, context);
      if (id) recorded.push(id);
    };
    let heldAfter = held;
    if (outcome.dropAll) {
      activities.dropAll(record.uuid, now);
    } else {
      const rated = rateActivities(outcome.happened, held, rateAt);
      heldAfter = rated.heldRate;
      for (const activity of rated.activities) save(activity);
      const planned = ratePlanned(outcome.planned, heldAfter, rateAt);
      for (const activity of planned) save(activity);
      activities.dropPlannedExcept(
        record.uuid,
        planned.flatMap((activity) => (activity.plan_key ? [activity.plan_key] : [])),
        now,
      );
    }
    const rate = record.status === 'scheduled' && record.start_date ? rateAt(record.start_date) : heldAfter;
    // saveSubscriptionMrr: a record older than the stored one changes nothing.
    if (!storedRow || storedRow.version <= record.version) {
      const figures = mrrFigures(
        record.status,
        record.pricing.mrr,
        record.scheduled?.mrr ?? null,
        rate,
        organization.base,
      );
      const invalid = outcome.dropAll || (storedRow?.invalid ?? false);
      mrrRows.set(record.uuid, {
        id: record.uuid,
        ...subscriptionMrrColumns(organizationId, record, rate, figures, invalid),
      });
      const organizationTotals = totals.get(organizationId) ?? [];
      organizationTotals.push(mrrTotalsChange(storedRow, figures, record.status));
      totals.set(organizationId, organizationTotals);
      starts.set(record.uuid, accountKey(organizationId, record.account), record.original_start_date);
    }
    // rederiveAccountActivities, on the account as this change left it.
    const movements = activities.movements(
      organizationId,
      record.account,
      (reasonId) => reasonNames.get(accountKey(organizationId, reasonId)) ?? null,
    );
    accountActivities.rederive(
      organizationId,
      record.account,
      movements,
      starts.firstOf(accountKey(organizationId, record.account)),
      now,
    );
    announced.push(recorded.filter((id) => activities.counts(id)).map((id) => activities.recordOf(id)));
  });

  const news = await announce(announced);
  // One statement: each table once, new and changed rows apart (the ledgers never list a row in both).
  await runWrites(em, [
    activityInserts(activities.recorded()),
    activityUpdates(activities.changed()),
    subscriptionMrrSaves([...mrrRows.values()]),
    mrrTotalsMoves(
      new Map(
        [...totals].map(([organizationId, organizationTotals]) => [
          organizationId,
          sumOfTotalsChanges(organizationTotals),
        ]),
      ),
    ),
    accountActivityInserts(accountActivities.recorded()),
    accountActivityUpdates(accountActivities.changed()),
    news,
  ]);
}

/** The original starts of accounts' subscriptions, as subscription_mrr holds them. */
class SubscriptionStarts {
  private readonly byAccount = new Map<string, Map<string, Date | null>>();
  private readonly accountOf = new Map<string, string>();

  constructor(
    stored: ReadonlyArray<{ id: string; organizationId: string; accountId: string; originalStart: Date | null }>,
  ) {
    for (const start of stored)
      this.set(start.id, accountKey(start.organizationId, start.accountId), start.originalStart);
  }

  set(subscriptionId: string, account: string, originalStart: Date | null): void {
    const previous = this.accountOf.get(subscriptionId);
    if (previous !== undefined) this.byAccount.get(previous)?.delete(subscriptionId);
    this.accountOf.set(subscriptionId, account);
    const ofAccount = this.byAccount.get(account) ?? new Map<string, Date | null>();
    ofAccount.set(subscriptionId, originalStart);
    this.byAccount.set(account, ofAccount);
  }

  /** The account's first start (`min(original_start_date)`), null without one. */
  firstOf(account: string): Date | null {
    let first: Date | null = null;
    for (const start of this.byAccount.get(account)?.values() ?? []) {
      if (start && (!first || start < first)) first = start;
    }
    return first;
  }
}
