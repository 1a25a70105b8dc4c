import { isDeepStrictEqual } from 'node:util';
import type { SubscriptionRow } from './entities/subscription.entity.js';

/**
 * A subscription's version: 1 when created, one more with every committed change of its row,
 * whichever path writes it (the unit of work, the scheduler's bulk statement, a plain UPDATE).
 * Readers of subscription.changed get each state twice (handed over after commit, and from the
 * stream) and in any order, so they keep a state only when its version is greater than theirs;
 * an event's snapshot therefore carries the version of the state it describes.
 *
 * Counting is done on the row object before its state is written or published, once however many
 * times the transaction stages values on it. A row object belongs to one transaction (every
 * attempt forks a new entity manager and loads its rows anew), so "once per object" is "once per
 * committed change".
 */
const counted = new WeakSet<SubscriptionRow>();

/** The version of a row being created (the transaction's later edits of it are part of its creation). */
export function firstVersion(row: SubscriptionRow): void {
  row.version = 1;
  counted.add(row);
}

/** Counts a change of the row in this transaction: its version becomes the stored one plus one, once. */
export function countChange(row: SubscriptionRow): void {
  if (counted.has(row)) return;
  counted.add(row);
  row.version += 1;
}

/** The properties `columns` would change on the row (dates by instant, JSON by content). */
export function changedProperties(
  row: SubscriptionRow,
  columns: Partial<SubscriptionRow>,
): Array<Extract<keyof SubscriptionRow, string>> {
  return (Object.keys(columns) as Array<Extract<keyof SubscriptionRow, string>>).filter(
    (property) => !isDeepStrictEqual(row[property] ?? null, columns[property] ?? null),
  );
}
