import { readSnapshot } from '@billing/db';
import { isUuid, type PageSpec, resolveOrdering } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { ExportSnapshot } from '@billing/exports';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager, FilterQuery, QBFilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import type { ChargeLineRecord } from '../domain/lifecycle/index.js';
import type { SubscriptionListFilter } from '../domain/subscription-list.js';
import { ChargeEntity } from './entities/charge.entity.js';
import { PlanTermsEntity } from './entities/plan-terms.entity.js';
import { SubscriptionEntity, type SubscriptionRow } from './entities/subscription.entity.js';

/** The organization's subscription, or 404 (also another organization's). `lock`: FOR UPDATE. */
export async function requireSubscription(
  em: EntityManager,
  organizationId: string,
  uuid: string,
  lock = false,
): Promise<SubscriptionRow> {
  if (!isUuid(uuid)) throw AppError.notFound();
  const row = await em.findOne(
    SubscriptionEntity,
    { organization_id: organizationId, id: uuid },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!row) throw AppError.notFound();
  return row;
}

/**
 * Makes the operations that must see the account's subscriptions as one consistent set (subscribe:
 * it replaces all of them) take turns until their transactions end: a transaction-scoped advisory
 * lock on the account's uuid. Row locks alone cannot do it: a subscribe does not see a subscription
 * another one is inserting. Taken first, before any row lock, so that no two transactions wait for
 * each other's locks in opposite orders.
 */
export async function lockAccountSubscriptions(em: EntityManager, accountId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`subscriptions.account:${accountId}`]);
}

/** Every line ever charged to the subscription, oldest first (full refunds, cancel_invalid). */
export async function chargedLines(
  em: EntityManager,
  organizationId: string,
  subscriptionId: string,
): Promise<ChargeLineRecord[]> {
  const charges = await em.find(
    ChargeEntity,
    { organization_id: organizationId, subscription_id: subscriptionId },
    { orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
  );
  return charges.flatMap((charge) => charge.lines);
}

/** REST ordering names → columns (docs/api.md). */
const SUBSCRIPTION_ORDERING: Readonly<Record<string, string>> = {
  start_date: 'start_date',
  next_renewal_date: 'next_renewal_date',
  end_date: 'end_date',
  created_date: 'created_at',
  last_modified_date: 'updated_at',
  status: 'status',
};

type Range = { $lte?: Date; $gte?: Date };
function range(lte: Date | undefined, gte: Date | undefined): Range | undefined {
  if (!lte && !gte) return undefined;
  const condition: Range = {};
  if (lte) condition.$lte = lte;
  if (gte) condition.$gte = gte;
  return condition;
}

/** One page of the organization's subscriptions matching the list filters. */
export async function findSubscriptions(
  em: EntityManager,
  organizationId: string,
  f: SubscriptionListFilter,
  page: PageSpec,
): Promise<{ count: number; rows: SubscriptionRow[] }> {
  const [rows, count] = await readSnapshot(em, async (tx) =>
    tx.findAndCount(SubscriptionEntity, await subscriptionListWhere(tx, organizationId, f), {
      orderBy: subscriptionListOrder(page.ordering),
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    }),
  );
  return { count, rows };
}

/**
 * Every subscription of the organization matching the list filters, in the list's order, read
 * through the export snapshot's cursor (rows as PostgreSQL returns them: the entity's shape), and
 * their number (read in the same snapshot).
 */
export async function streamSubscriptions(
  snapshot: ExportSnapshot,
  organizationId: string,
  f: SubscriptionListFilter,
  ordering: string,
): Promise<{ count: number; rows: AsyncIterable<SubscriptionRow> }> {
  const where = await subscriptionListWhere(snapshot.em, organizationId, f);
  const count = await snapshot.em.count(SubscriptionEntity, where);
  const query = snapshot.em
    .createQueryBuilder(SubscriptionEntity)
    .select('*')
    // The conditions here are objects (FilterQuery also admits primary keys, which they never are).
    .where(where as QBFilterQuery<SubscriptionRow>)
    .orderBy(subscriptionListOrder(ordering))
    .toQuery();
  return { count, rows: snapshot.stream(query) as AsyncIterable<SubscriptionRow> };
}

function subscriptionListOrder(ordering: string): QueryOrderMap<SubscriptionRow>[] {
  const { column, direction } = resolveOrdering(ordering, SUBSCRIPTION_ORDERING, 'created_date');
  return [{ [column]: direction }, { created_at: 'asc' }, { id: 'asc' }];
}

async function subscriptionListWhere(
  em: EntityManager,
  organizationId: string,
  f: SubscriptionListFilter,
): Promise<FilterQuery<SubscriptionRow>> {
  const and: FilterQuery<SubscriptionRow>[] = [{ organization_id: organizationId }];
  const uuidOrNothing = (value: string) => (isUuid(value) ? value : '00000000-0000-0000-0000-000000000000');
  if (f.account !== undefined) and.push({ account_id: uuidOrNothing(f.account) });
  if (f.terms !== undefined) and.push({ plan_terms_id: uuidOrNothing(f.terms) });
  if (f.plan !== undefined) {
    const terms = isUuid(f.plan)
      ? await em.find(PlanTermsEntity, { organization_id: organizationId, plan_id: f.plan }, { fields: ['id'] })
      : [];
    and.push({ plan_terms_id: { $in: terms.map((row) => row.id) } });
  }
  if (f.status !== undefined) and.push({ status: f.status });
  if (f.collection_method !== undefined) and.push({ collection_method: f.collection_method });
  if (f.set_to_expire !== undefined)
    and.push(f.set_to_expire ? { status: 'not_renewing' } : { status: { $ne: 'not_renewing' } });
  if (f.has_custom_price !== undefined) and.push({ override_price: f.has_custom_price ? { $ne: null } : null });
  if (f.account_in !== undefined) and.push({ account_id: { $in: [...f.account_in] } });
  const ranges: [keyof SubscriptionRow, Range | undefined][] = [
    ['start_date', range(f.start_date_lte, f.start_date_gte)],
    ['next_renewal_date', range(f.next_renewal_date_lte, f.next_renewal_date_gte)],
    ['end_date', range(f.end_date_lte, f.end_date_gte)],
    ['updated_at', range(f.last_modified_date_lte, f.last_modified_date_gte)],
  ];
  for (const [column, condition] of ranges)
    if (condition) and.push({ [column]: condition } as FilterQuery<SubscriptionRow>);
  return { $and: and };
}

/** The organization's charges no test clock advance has seen invoiced yet, in id order. */
export async function chargeIdsAwaitingInvoice(em: EntityManager, organizationId: string): Promise<string[]> {
  const rows = await em.find(
    ChargeEntity,
    { organization_id: organizationId, awaiting_invoice: true },
    { fields: ['id'], orderBy: { id: 'asc' } },
  );
  return rows.map((row) => row.id);
}

/**
 * Every charge of the subscription committed so far, oldest first (a plain query: it neither
 * flushes nor sees charges the running change has not written yet).
 */
export async function chargeIdsOfSubscription(
  em: EntityManager,
  organizationId: string,
  subscriptionId: string,
): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    'select id from charge where organization_id = ? and subscription_id = ? order by created_at, id',
    [organizationId, subscriptionId],
  );
  return rows.map((row) => row.id);
}

/** These charges of the organization were seen invoiced: no longer awaited. Returns how many changed. */
export async function confirmChargesInvoiced(
  em: EntityManager,
  organizationId: string,
  chargeIds: readonly string[],
): Promise<number> {
  const ids = chargeIds.filter(isUuid);
  if (ids.length === 0) return 0;
  return em.nativeUpdate(
    ChargeEntity,
    { organization_id: organizationId, id: { $in: ids }, awaiting_invoice: true },
    { awaiting_invoice: false },
  );
}

/**
 * The account's subscriptions that renew by themselves (active, auto-renewing, with a next renewal),
 * soonest renewal first, then oldest.
 */
export async function autoRenewingSubscriptions(
  em: EntityManager,
  organizationId: string,
  accountId: string,
): Promise<SubscriptionRow[]> {
  return em.find(
    SubscriptionEntity,
    {
      organization_id: organizationId,
      account_id: accountId,
      status: 'active',
      is_auto_renew_enabled: true,
      next_renewal_date: { $ne: null },
    },
    { orderBy: [{ next_renewal_date: 'asc' }, { created_at: 'asc' }, { id: 'asc' }] },
  );
}

/** Which rows are due: a test-clock organization's own (only that one's), or the real clock's. */
export interface DueScope {
  now: Date;
  testClockOrganization: string | null;
}

/** The filter of the rows due in `due` (due_at reached). */
export function dueFilter(due: DueScope) {
  return due.testClockOrganization
    ? { on_test_clock: true, organization_id: due.testClockOrganization, due_at: { $lte: due.now } }
    : { on_test_clock: false, due_at: { $lte: due.now } };
}

/**
 * How due rows are claimed. The scheduler skips rows another transaction holds (FOR UPDATE SKIP
 * LOCKED): another replica takes them, or an API write that is changing one, and a later pass
 * finds whatever is still due. The test clock's processing must not skip anything: its caller
 * answers that everything due up to the new time is done, so it waits for a held row (FOR UPDATE)
 * and then sees it as that transaction left it.
 */
export function dueLockMode(due: DueScope): LockMode {
  return due.testClockOrganization ? LockMode.PESSIMISTIC_WRITE : LockMode.PESSIMISTIC_PARTIAL_WRITE;
}

/**
 * Claims up to `limit` due rows, soonest due first, locked as dueLockMode says. The rows are plain
 * objects converted like em.find's but not tracked by the unit of work (tracking was the costliest
 * part of a scheduler batch).
 */
export async function claimDueSubscriptions(
  em: EntityManager,
  due: DueScope,
  limit: number,
): Promise<SubscriptionRow[]> {
  return em
    .createQueryBuilder(SubscriptionEntity)
    .select('*')
    .where(dueFilter(due))
    .orderBy([{ due_at: 'asc' }, { id: 'asc' }])
    .limit(limit)
    .setLockMode(dueLockMode(due))
    .execute('all');
}
