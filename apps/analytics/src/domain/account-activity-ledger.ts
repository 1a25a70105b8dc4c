import { type Decimal, money } from '@billing/money';
import { type AccountActivityDraft, deriveAccountActivities, type MrrMovement } from './account-activities.js';

/** A derived (not manual) account activity row as stored (all its columns but `seq`). */
export interface AccountActivityRecord {
  id: string;
  organization_id: string;
  account_id: string;
  source_id: string | null;
  subscription: string | null;
  type: string;
  date: Date;
  created_date: Date;
  old_mrr: string | null;
  new_mrr: string | null;
  mrr_change: string;
  churn_reason: string;
  account_first_subscription_start_date: Date | null;
  is_manual: boolean;
  deleted: boolean;
  dropped: boolean;
  account_code: string | null;
  company_name: string | null;
}

/** The columns a derivation sets on its row. */
export function accountActivityColumns(draft: AccountActivityDraft, firstStart: Date | null) {
  const fixed = (value: Decimal) => value.toFixed(2);
  return {
    subscription: draft.subscription,
    type: draft.type,
    date: draft.date,
    old_mrr: fixed(draft.old_mrr),
    new_mrr: fixed(draft.new_mrr),
    mrr_change: fixed(draft.mrr_change),
    churn_reason: draft.churn_reason,
    account_first_subscription_start_date: firstStart,
  };
}

const sameDecimal = (a: string | null, b: string | null) =>
  a === null || b === null ? a === b : money(a).equals(money(b));
const sameDate = (a: Date | null, b: Date | null) => (a === null || b === null ? a === b : a.getTime() === b.getTime());

/** Whether two states of a row store the same values. */
function sameRow(a: AccountActivityRecord, b: AccountActivityRecord): boolean {
  return (
    a.subscription === b.subscription &&
    a.type === b.type &&
    sameDate(a.date, b.date) &&
    sameDecimal(a.old_mrr, b.old_mrr) &&
    sameDecimal(a.new_mrr, b.new_mrr) &&
    sameDecimal(a.mrr_change, b.mrr_change) &&
    a.churn_reason === b.churn_reason &&
    sameDate(a.account_first_subscription_start_date, b.account_first_subscription_start_date) &&
    a.dropped === b.dropped
  );
}

interface Entry {
  record: AccountActivityRecord;
  /** The row as stored; null for a row derived here. */
  stored: AccountActivityRecord | null;
}

/**
 * Some accounts' derived activities in memory, derived again after each change exactly as
 * rederiveAccountActivities derives the stored rows (a row per causing activity, rows no longer
 * derived marked dropped), so an account changed several times is written once at the end.
 */
export class AccountActivityLedger {
  private readonly byAccount = new Map<string, Entry[]>();
  private readonly derivedHere: Entry[] = [];

  /** `stored`: the accounts' derived rows (not manual), in recording order. */
  constructor(
    stored: readonly AccountActivityRecord[],
    private readonly newId: () => string,
  ) {
    for (const record of stored)
      this.entriesOf(record.organization_id, record.account_id).push({ record: { ...record }, stored: record });
  }

  private entriesOf(organizationId: string, accountId: string): Entry[] {
    const key = `${organizationId}/${accountId}`;
    let entries = this.byAccount.get(key);
    if (!entries) {
      entries = [];
      this.byAccount.set(key, entries);
    }
    return entries;
  }

  /** rederiveAccountActivities: the account's activities derived from its movements now. */
  rederive(
    organizationId: string,
    accountId: string,
    movements: readonly MrrMovement[],
    firstStart: Date | null,
    now: Date,
  ): void {
    const entries = this.entriesOf(organizationId, accountId);
    const existing = [...entries];
    const bySource = new Map(existing.map((entry) => [entry.record.source_id, entry]));
    const derived = new Set<string>();
    for (const draft of deriveAccountActivities(movements)) {
      derived.add(draft.source);
      const columns = accountActivityColumns(draft, firstStart);
      const entry = bySource.get(draft.source);
      if (entry) Object.assign(entry.record, { ...columns, dropped: false });
      else {
        const created: Entry = {
          record: {
            id: this.newId(),
            organization_id: organizationId,
            account_id: accountId,
            source_id: draft.source,
            created_date: now,
            is_manual: false,
            deleted: false,
            dropped: false,
            account_code: null,
            company_name: null,
            ...columns,
          },
          stored: null,
        };
        entries.push(created);
        this.derivedHere.push(created);
      }
    }
    for (const { record } of existing) {
      if (record.source_id && !derived.has(record.source_id) && !record.dropped) record.dropped = true;
    }
  }

  /** The rows derived here, in the order they were derived (as they are to be inserted). */
  recorded(): AccountActivityRecord[] {
    return this.derivedHere.map((entry) => entry.record);
  }

  /** The stored rows whose values changed here, as they are now. */
  changed(): AccountActivityRecord[] {
    const changed: AccountActivityRecord[] = [];
    for (const entries of this.byAccount.values()) {
      for (const entry of entries) if (entry.stored && !sameRow(entry.stored, entry.record)) changed.push(entry.record);
    }
    return changed;
  }
}
