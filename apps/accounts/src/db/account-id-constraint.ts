import type { RawQueryFragment } from '@mikro-orm/core';
import type { FilterQuery } from '@mikro-orm/postgresql';
import type { AccountRow } from './entities/account.entity.js';

/**
 * A list filter answered by another table, as a condition on the account id: `in` the ids a
 * subquery selects, or `notIn` them (every account but those). The subquery runs inside the list's
 * own statement: no id list goes to this process and back.
 */
export type AccountIdConstraint = { in: RawQueryFragment } | { notIn: RawQueryFragment };

export function accountIdCondition(constraint: AccountIdConstraint): FilterQuery<AccountRow> {
  return 'in' in constraint ? { id: { $in: constraint.in } } : { id: { $nin: constraint.notIn } };
}
