import { money } from '@billing/money';
import type { MrrMovement } from './account-activities.js';
import { type ActivityColumns, type ActivityContext, activityColumns } from './activity-columns.js';
import type { RatedActivity } from './activity-rates.js';
import { shownChurnReason } from './churn-reason.js';

/** An activity row as stored (all its columns but the recording order, `seq`). */
export interface ActivityRecord
  extends Omit<ActivityColumns, 'type' | 'old_mrr_in_subscription_currency' | 'new_mrr_in_subscription_currency'> {
  id: string;
  /** Null on an invoice activity (it moves no MRR). */
  old_mrr_in_subscription_currency: string | null;
  new_mrr_in_subscription_currency: string | null;
  organization_id: string;
  account_id: string;
  subscription_id: string | null;
  invoice_id: string | null;
  type: string;
  created_date: Date;
  updated_date: Date;
  is_manual: boolean;
  deleted: boolean;
  dropped: boolean;
  planned: boolean;
  plan_key: string | null;
}

/** Activity types that move no MRR (they carry an invoice). */
export const INVOICE_ACTIVITY_TYPES: readonly string[] = ['invoice_sent', 'invoice_paid', 'payment_made'];

interface Entry {
  record: ActivityRecord;
  /** Recording order: the stored seq, or after every stored row for a row recorded here. */
  order: number;
  recorded: boolean;
  changed: boolean;
}

/** Rows recorded here come after every stored one (the sequence only grows), in recording order. */
const RECORDED_ORDER = 2 ** 52;

/**
 * Some accounts' and subscriptions' activities in memory, changed as subscription changes are
 * applied one after the other exactly as saveActivity, dropPlannedExcept and dropAllActivities
 * change the stored rows; what changed is then written at once. It must hold every row of the
 * subscriptions it changes and every row of the accounts it derives movements of.
 */
export class ActivityLedger {
  private readonly entries: Entry[] = [];
  private readonly bySubscription = new Map<string, Entry[]>();
  private readonly byId = new Map<string, Entry>();
  private readonly byAccount = new Map<string, Entry[]>();
  private nextOrder = RECORDED_ORDER;

  constructor(
    stored: ReadonlyArray<{ record: ActivityRecord; seq: number }>,
    private readonly newId: () => string,
  ) {
    for (const { record, seq } of stored)
      this.add({ record: { ...record }, order: seq, recorded: false, changed: false });
  }

  private add(entry: Entry): void {
    this.entries.push(entry);
    this.byId.set(entry.record.id, entry);
    const account = `${entry.record.organization_id}/${entry.record.account_id}`;
    const ofAccount = this.byAccount.get(account);
    if (ofAccount) ofAccount.push(entry);
    else this.byAccount.set(account, [entry]);
    const subscription = entry.record.subscription_id;
    if (subscription === null) return;
    const rows = this.bySubscription.get(subscription);
    if (rows) rows.push(entry);
    else this.bySubscription.set(subscription, [entry]);
  }

  private rowsOf(subscriptionId: string): Entry[] {
    return this.bySubscription.get(subscriptionId) ?? [];
  }

  /**
   * saveActivity: one with a plan key completes or re-plans the row of that key (a planned row
   * turns happened; a happened row is not planned again), others are new rows. Returns the id of
   * a new row.
   */
  save(activity: RatedActivity, context: ActivityContext): string | null {
    const columns = activityColumns(activity, context);
    if (activity.plan_key) {
      const existing = this.rowsOf(context.subscriptionId).find((entry) => entry.record.plan_key === activity.plan_key);
      if (existing) {
        if (activity.planned && !existing.record.planned) return null;
        Object.assign(existing.record, {
          ...columns,
          planned: activity.planned,
          dropped: false,
          updated_date: context.now,
        });
        existing.changed = true;
        return null;
      }
    }
    const record: ActivityRecord = {
      id: this.newId(),
      organization_id: context.organizationId,
      account_id: context.accountId,
      subscription_id: context.subscriptionId,
      invoice_id: null,
      created_date: context.now,
      updated_date: context.now,
      is_manual: false,
      deleted: false,
      dropped: false,
      planned: activity.planned,
      plan_key: activity.plan_key,
      ...columns,
    };
    this.add({ record, order: this.nextOrder++, recorded: true, changed: false });
    return record.id;
  }

  /** dropPlannedExcept: planned activities of the subscription whose moment is no longer planned are dropped. */
  dropPlannedExcept(subscriptionId: string, keep: readonly string[], now: Date): void {
    for (const entry of this.rowsOf(subscriptionId)) {
      const row = entry.record;
      if (!row.planned || row.dropped) continue;
      if (row.plan_key && keep.includes(row.plan_key)) continue;
      this.drop(entry, now);
    }
  }

  /** dropAllActivities (cancel_invalid): every activity of the subscription is dropped. */
  dropAll(subscriptionId: string, now: Date): void {
    for (const entry of this.rowsOf(subscriptionId)) if (!entry.record.dropped) this.drop(entry, now);
  }

  private drop(entry: Entry, now: Date): void {
    Object.assign(entry.record, { dropped: true, planned: false, updated_date: now });
    entry.changed = true;
  }

  /** The row of an id saved or held here, as it is now (as written, once the batch has written it). */
  recordOf(id: string): ActivityRecord {
    const entry = this.byId.get(id);
    if (!entry) throw new Error(`activity ${id} is not in the ledger`);
    return entry.record;
  }

  /** Whether the row is one that counts now (not deleted nor dropped): what activity.created announces. */
  counts(id: string): boolean {
    const entry = this.byId.get(id);
    return entry !== undefined && !entry.record.deleted && !entry.record.dropped;
  }

  /**
   * The account's MRR movements now, as rederiveAccountActivities reads them: its activities that
   * count and move MRR, by date then recording order. `reasonName` names a churn reason uuid.
   */
  movements(
    organizationId: string,
    accountId: string,
    reasonName: (churnReason: string) => string | null,
  ): MrrMovement[] {
    return (this.byAccount.get(`${organizationId}/${accountId}`) ?? [])
      .filter(({ record: row }) => !row.deleted && !row.dropped && !INVOICE_ACTIVITY_TYPES.includes(row.type))
      .sort((a, b) => a.record.date.getTime() - b.record.date.getTime() || a.order - b.order)
      .map(({ record: row }) => ({
        source: row.id,
        subscription: row.subscription_id,
        date: row.date,
        new_mrr: row.new_mrr === null ? null : money(row.new_mrr),
        churn_reason: shownChurnReason(
          row.churn_reason === null ? null : reasonName(row.churn_reason),
          row.custom_churn_reason,
        ),
      }));
  }

  /** The rows recorded here, in recording order (as they are to be inserted). */
  recorded(): ActivityRecord[] {
    return this.entries.filter((entry) => entry.recorded).map((entry) => entry.record);
  }

  /** The stored rows changed here, as they are now. */
  changed(): ActivityRecord[] {
    return this.entries.filter((entry) => entry.changed && !entry.recorded).map((entry) => entry.record);
  }
}
