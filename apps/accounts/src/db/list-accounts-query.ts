import { readSnapshot } from '@billing/db';
import { type PageSpec, resolveOrdering } from '@billing/domain-kit';
import type { ExportSnapshot } from '@billing/exports';
import type { EntityManager, FilterQuery, QBFilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import {
  ACCOUNT_ORDERING,
  type CheckedAccountListFilter,
  DEFAULT_ACCOUNT_ORDERING,
  NULL_FILTER_VALUE,
} from '../domain/account-list.js';
import { accountIdCondition } from './account-id-constraint.js';
import { balanceFilterConstraint } from './account-invoice-store.js';
import { paymentMeansFilterConstraints } from './account-payment-means-store.js';
import { subscriptionFilterConstraints } from './account-subscription-store.js';
import { AccountEntity, type AccountRow } from './entities/account.entity.js';
import { RecipientEntity } from './entities/recipient.entity.js';

type AccountWhere = FilterQuery<AccountRow>;

/** One page of an organization's accounts with the total count of matches. */
export async function findAccountPage(
  em: EntityManager,
  organizationId: string,
  filter: CheckedAccountListFilter,
  page: PageSpec,
): Promise<{ rows: AccountRow[]; count: number }> {
  const [rows, count] = await readSnapshot(em, async (tx) =>
    tx.findAndCount(AccountEntity, await buildWhere(tx, organizationId, filter), {
      orderBy: accountListOrder(page.ordering),
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    }),
  );
  return { rows, count };
}

/**
 * Every account of the organization matching the list filters, in the list's order, read through
 * the export snapshot's cursor (rows as PostgreSQL returns them: the entity's shape), and their
 * number (read in the same snapshot).
 */
export async function streamAccounts(
  snapshot: ExportSnapshot,
  organizationId: string,
  filter: CheckedAccountListFilter,
  ordering: string,
): Promise<{ count: number; rows: AsyncIterable<AccountRow> }> {
  const where = await buildWhere(snapshot.em, organizationId, filter);
  const count = await snapshot.em.count(AccountEntity, where);
  const query = snapshot.em
    .createQueryBuilder(AccountEntity)
    .select('*')
    // buildWhere's conditions are objects (FilterQuery also admits primary keys, which it never makes).
    .where(where as QBFilterQuery<AccountRow>)
    .orderBy(accountListOrder(ordering))
    .toQuery();
  return { count, rows: snapshot.stream(query) as AsyncIterable<AccountRow> };
}

function accountListOrder(ordering: string): QueryOrderMap<AccountRow>[] {
  const { column, direction } = resolveOrdering(
    ordering || DEFAULT_ACCOUNT_ORDERING,
    ACCOUNT_ORDERING,
    DEFAULT_ACCOUNT_ORDERING,
  );
  return [{ [column]: direction }, { id: 'asc' }];
}

export async function buildWhere(
  em: EntityManager,
  organizationId: string,
  filter: CheckedAccountListFilter,
): Promise<AccountWhere> {
  const and: AccountWhere[] = [{ organization_id: organizationId }];
  const equal = <K extends keyof AccountRow>(field: K, value: AccountRow[K] | undefined) => {
    if (value !== undefined) and.push({ [field]: value } as AccountWhere);
  };
  equal('id', filter.uuid);
  equal('code', filter.code);
  equal('is_getting_reminders', filter.is_getting_reminders);
  equal('is_archived', filter.is_archived);
  equal('override_business_entity', filter.override_business_entity);
  equal('legal_country', filter.legal_country);
  equal('ean_invoicing', filter.ean_invoicing);
  equal('register_status', filter.register_status === NULL_FILTER_VALUE ? null : filter.register_status);
  if (filter.type !== undefined) {
    // An account without an explicit type is a company when it has a company name (domain rule).
    and.push(
      filter.type === 'company'
        ? { $or: [{ type: 'company' }, { type: null, company_name: { $ne: null } }] }
        : { $or: [{ type: filter.type }, ...(filter.type === 'person' ? [{ type: null, company_name: null }] : [])] },
    );
  }
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    and.push({
      $or: [
        { company_name: { $ilike: pattern } },
        { first_name: { $ilike: pattern } },
        { last_name: { $ilike: pattern } },
        { code: { $ilike: pattern } },
      ],
    });
  }
  if (filter.created_date_lte) and.push({ created_at: { $lte: filter.created_date_lte } });
  if (filter.created_date_gte) and.push({ created_at: { $gte: filter.created_date_gte } });
  if (filter.last_modified_date_lte) and.push({ updated_at: { $lte: filter.last_modified_date_lte } });
  if (filter.last_modified_date_gte) and.push({ updated_at: { $gte: filter.last_modified_date_gte } });
  if (filter.reseller_program !== undefined) {
    // A reseller is an account that other accounts name as their reseller.
    const resellers = em
      .createQueryBuilder(AccountEntity, 'resold')
      .select('reseller')
      .where({ organization_id: organizationId, reseller: { $ne: null } })
      .toRaw();
    and.push(accountIdCondition(filter.reseller_program ? { in: resellers } : { notIn: resellers }));
  }
  if (filter.has_recipient_receiving_invoices !== undefined) {
    const receiving = em
      .createQueryBuilder(RecipientEntity, 'recipient')
      .select('account_id')
      .where({ organization_id: organizationId, receive_invoice: true })
      .toRaw();
    and.push(accountIdCondition(filter.has_recipient_receiving_invoices ? { in: receiving } : { notIn: receiving }));
  }
  const constraints = [
    ...subscriptionFilterConstraints(em, organizationId, filter),
    ...paymentMeansFilterConstraints(em, organizationId, filter),
    ...(filter.balance === undefined ? [] : [balanceFilterConstraint(organizationId, filter.balance)]),
  ];
  and.push(...constraints.map(accountIdCondition));
  return { $and: and };
}
