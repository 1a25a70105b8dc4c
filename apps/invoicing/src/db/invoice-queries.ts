import { readSnapshot } from '@billing/db';
import { isUuid, type PageSpec, resolveOrdering } from '@billing/domain-kit';
import type { ExportSnapshot } from '@billing/exports';
import type { EntityManager, FilterQuery, QBFilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import type { InvoiceLineListFilter, InvoiceListFilter } from '../domain/invoice-list.js';
import { InvoiceEntity, type InvoiceRow } from './entities/invoice.entity.js';
import { InvoiceLineEntity, type InvoiceLineRow } from './entities/invoice-line.entity.js';
import { invoicesWithLinesOf } from './invoice-store.js';

const NOTHING = '00000000-0000-0000-0000-000000000000';
const uuidOrNothing = (value: string): string => (isUuid(value) ? value : NOTHING);

/** REST ordering names → columns (docs/api.md). */
const INVOICE_ORDERING: Readonly<Record<string, string>> = {
  invoice_number: 'invoice_number',
  date: 'date',
  due_date: 'due_date',
  total: 'total',
  created_date: 'created_at',
  last_modified_date: 'updated_at',
};

/** One page of the organization's issued invoices matching the list filters (api-spec "Invoices"). */
export async function findInvoices(
  em: EntityManager,
  organizationId: string,
  filter: InvoiceListFilter,
  page: PageSpec,
): Promise<{ count: number; rows: InvoiceRow[] }> {
  const [rows, count] = await readSnapshot(em, async (tx) =>
    tx.findAndCount(InvoiceEntity, await invoiceListWhere(tx, organizationId, filter), {
      orderBy: invoiceListOrder(page.ordering),
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    }),
  );
  return { count, rows };
}

/**
 * Every issued invoice of the organization matching the list filters, in the list's order, read
 * through the export snapshot's cursor, and their number (read in the same snapshot).
 */
export async function streamInvoices(
  snapshot: ExportSnapshot,
  organizationId: string,
  filter: InvoiceListFilter,
  ordering: string,
): Promise<{ count: number; rows: AsyncIterable<InvoiceRow> }> {
  const where = await invoiceListWhere(snapshot.em, organizationId, filter);
  return invoiceRows(snapshot, where, invoiceListOrder(ordering));
}

async function invoiceRows(
  snapshot: ExportSnapshot,
  where: FilterQuery<InvoiceRow>,
  orderBy: QueryOrderMap<InvoiceRow>[],
): Promise<{ count: number; rows: AsyncIterable<InvoiceRow> }> {
  const count = await snapshot.em.count(InvoiceEntity, where);
  const query = snapshot.em
    .createQueryBuilder(InvoiceEntity)
    .select('*')
    // The conditions here are objects (FilterQuery also admits primary keys, which they never are).
    .where(where as QBFilterQuery<InvoiceRow>)
    .orderBy(orderBy)
    .toQuery();
  async function* rows() {
    for await (const raw of snapshot.stream(query)) yield invoiceRowOf(raw);
  }
  return { count, rows: rows() };
}

/** An invoice row as PostgreSQL returns it, typed as the entity's: only the int8 number differs. */
function invoiceRowOf(raw: Record<string, unknown>): InvoiceRow {
  const number = raw.invoice_number as string | null;
  return { ...raw, invoice_number: number === null ? null : Number(number) } as InvoiceRow;
}

/** The list's ordering as a column of the invoice table and a direction; ties by id. */
export function invoiceListOrdering(ordering: string): { column: string; direction: 'asc' | 'desc' } {
  return resolveOrdering(ordering || '-invoice_number', INVOICE_ORDERING, '-invoice_number');
}

function invoiceListOrder(ordering: string): QueryOrderMap<InvoiceRow>[] {
  const { column, direction } = invoiceListOrdering(ordering);
  return [{ [column]: direction }, { id: 'asc' }];
}

/**
 * The invoices matching the list filters as one query (`select i0.* from invoice as i0 where ...`,
 * unordered), to build an export's set-based query on.
 */
export async function invoiceListSelection(
  em: EntityManager,
  organizationId: string,
  filter: InvoiceListFilter,
): Promise<{ sql: string; params: readonly unknown[] }> {
  const where = await invoiceListWhere(em, organizationId, filter);
  return em
    .createQueryBuilder(InvoiceEntity, 'i0')
    .select('*')
    .where(where as QBFilterQuery<InvoiceRow>)
    .toQuery();
}

/** How many invoices a selection has and their accounts, in one pass over them. */
export async function invoiceListAccounts(
  em: EntityManager,
  selection: { sql: string; params: readonly unknown[] },
): Promise<{ count: number; accountIds: string[] }> {
  const rows = await em.execute<{ account_id: string; invoices: string }[]>(
    `select s.account_id, count(*) as invoices from (${selection.sql}) as s group by s.account_id`,
    [...selection.params],
  );
  return {
    count: rows.reduce((sum, row) => sum + Number(row.invoices), 0),
    accountIds: rows.map((row) => row.account_id),
  };
}

async function invoiceListWhere(
  em: EntityManager,
  organizationId: string,
  filter: InvoiceListFilter,
): Promise<FilterQuery<InvoiceRow>> {
  const and: FilterQuery<InvoiceRow>[] = [{ organization_id: organizationId }, { status: { $ne: 'pending' } }];
  if (filter.uuid !== undefined) and.push({ id: uuidOrNothing(filter.uuid) });
  if (filter.invoice_number !== undefined) and.push({ invoice_number: Number(filter.invoice_number) });
  if (filter.search !== undefined) {
    const number = /^\d{1,15}$/.test(filter.search) ? Number(filter.search) : null;
    const either: FilterQuery<InvoiceRow>[] = [{ account_id: { $in: filter.search_accounts ?? [] } }];
    if (number !== null) either.push({ invoice_number: number });
    and.push({ $or: either });
  }
  if (filter.account !== undefined) and.push({ account_id: uuidOrNothing(filter.account) });
  if (filter.account_not !== undefined) and.push({ account_id: { $ne: uuidOrNothing(filter.account_not) } });
  if (filter.status !== undefined) and.push({ status: filter.status });
  if (filter.status_not !== undefined) and.push({ status: { $ne: filter.status_not } });
  if (filter.total_gt !== undefined) and.push({ total: { $gt: filter.total_gt } });
  if (filter.total_lt !== undefined) and.push({ total: { $lt: filter.total_lt } });
  if (filter.balance !== undefined) and.push({ balance: filter.balance });
  if (filter.currency !== undefined) and.push({ currency: filter.currency });
  if (filter.collection_method !== undefined) and.push({ collection_method: filter.collection_method });
  if (filter.kickback_status !== undefined) and.push({ kickback_status: filter.kickback_status });
  if (filter.imported !== undefined) and.push({ imported: filter.imported });
  if (filter.import_source !== undefined) and.push({ import_source: filter.import_source });
  // Nothing is handed to debt collection by this platform: true matches no invoice.
  if (filter.debt_collection === true) and.push({ id: NOTHING });
  if (filter.subscription_uuid !== undefined) {
    and.push(
      isUuid(filter.subscription_uuid)
        ? { id: { $in: invoicesWithLinesOf(em, organizationId, filter.subscription_uuid) } }
        : { id: NOTHING },
    );
  }
  const ranges: [keyof InvoiceRow, unknown, unknown][] = [
    ['date', filter.date_lte, filter.date_gte],
    ['due_date', filter.due_date_lte, filter.due_date_gte],
    ['created_at', filter.created_date_lte, filter.created_date_gte],
    ['updated_at', filter.last_modified_date_lte, filter.last_modified_date_gte],
  ];
  for (const [column, lte, gte] of ranges) {
    if (lte !== undefined) and.push({ [column]: { $lte: lte } } as FilterQuery<InvoiceRow>);
    if (gte !== undefined) and.push({ [column]: { $gte: gte } } as FilterQuery<InvoiceRow>);
  }
  return { $and: and };
}

/** One page of the organization's invoice lines (issued invoices only), filters invoice, account, subscription. */
export async function findInvoiceLines(
  em: EntityManager,
  organizationId: string,
  filter: InvoiceLineListFilter,
  page: PageSpec,
): Promise<{ count: number; rows: InvoiceLineRow[] }> {
  const issued = await em.find(
    InvoiceEntity,
    { organization_id: organizationId, status: { $ne: 'pending' } },
    { fields: ['id'] },
  );
  const and: FilterQuery<InvoiceLineRow>[] = [
    { organization_id: organizationId },
    { invoice_id: { $in: issued.map((row) => row.id) } },
  ];
  if (filter.invoice !== undefined) and.push({ invoice_id: uuidOrNothing(filter.invoice) });
  if (filter.account !== undefined) and.push({ account_id: uuidOrNothing(filter.account) });
  if (filter.subscription !== undefined) and.push({ subscription_id: uuidOrNothing(filter.subscription) });
  const [rows, count] = await em.findAndCount(
    InvoiceLineEntity,
    { $and: and },
    { orderBy: [{ id: 'asc' }], limit: page.pageSize, offset: (page.page - 1) * page.pageSize },
  );
  return { count, rows };
}

/** The months (YYYY-MM of the invoice date, the organization's local day) that have issued invoices, newest first. */
export async function invoicedMonths(em: EntityManager, organizationId: string): Promise<{ month: string }[]> {
  return em.execute<{ month: string }[]>(
    `select distinct substr(date, 1, 7) as month from invoice where organization_id = ? and status <> 'pending' order by month desc`,
    [organizationId],
  );
}

/**
 * The organization's issued invoices and credit notes of one month (YYYY-MM; null: every month)
 * for the VAT export, read with a cursor, and their number: by invoice number, or grouped by
 * account code, account and currency (`byAccount`) so each group's invoices come together.
 */
export async function streamVatInvoices(
  snapshot: ExportSnapshot,
  organizationId: string,
  month: string | null,
  byAccount: boolean,
): Promise<{ count: number; rows: AsyncIterable<InvoiceRow> }> {
  const where: FilterQuery<InvoiceRow> = {
    organization_id: organizationId,
    status: { $ne: 'pending' },
    ...(month === null ? {} : { date: { $like: `${month}-%` } }),
  };
  const byAccountOrder: QueryOrderMap<InvoiceRow>[] = [
    { account_code: 'asc' },
    { account_id: 'asc' },
    { currency: 'asc' },
  ];
  return invoiceRows(snapshot, where, [...(byAccount ? byAccountOrder : []), { invoice_number: 'asc' }]);
}
