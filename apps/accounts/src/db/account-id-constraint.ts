import type { EntityName, RawQueryFragment } from '@mikro-orm/core';
import type { EntityManager, FilterQuery, QBFilterQuery } from '@mikro-orm/postgresql';
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

/**
 * The `account_id` of the organization's rows of a read model matching `where`, as a subquery for
 * an AccountIdConstraint.
 */
export function accountIdsWhere<Row extends { organization_id: string; account_id: string }>(
  em: EntityManager,
  entity: EntityName<Row>,
  organizationId: string,
  where: QBFilterQuery<Row>,
): RawQueryFragment {
  return (
    em
      .createQueryBuilder(entity, 'read_model')
      // A generic row type cannot name its columns to the builder; every read model has account_id.
      .select('account_id' as never)
      .where({ organization_id: organizationId } as QBFilterQuery<Row>)
      .andWhere(where)
      .toRaw()
  );
}
