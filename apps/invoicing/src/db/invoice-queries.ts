import { isUuid, type PageSpec, resolveOrdering } from '@billing/domain-kit';
import type { invoicingV1 } from '@billing/proto';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { InvoiceEntity, type InvoiceRow } from './entities/invoice.entity.js';
import { InvoiceLineEntity, type InvoiceLineRow } from './entities/invoice-line.entity.js';

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
  filter: invoicingV1.InvoiceFilter | undefined,
  page: PageSpec,
): Promise<{ count: number; rows: InvoiceRow[] }> {
  const f: Partial<invoicingV1.InvoiceFilter> = filter ?? {};
  const and: FilterQuery<InvoiceRow>[] = [{ organization_id: organizationId }, { status: { $ne: 'pending' } }];
  if (f.uuid !== undefined) and.push({ id: uuidOrNothing(f.uuid) });
  if (f.invoice_number !== undefined) and.push({ invoice_number: Number(f.invoice_number) });
  if (f.search !== undefined) {
    const number = /^\d{1,15}$/.test(f.search) ? Number(f.search) : null;
    const either: FilterQuery<InvoiceRow>[] = [{ account_id: { $in: f.search_accounts ?? [] } }];
    if (number !== null) either.push({ invoice_number: number });
    and.push({ $or: either });
  }
  if (f.account !== undefined) and.push({ account_id: uuidOrNothing(f.account) });
  if (f.account_not !== undefined) and.push({ account_id: { $ne: uuidOrNothing(f.account_not) } });
  if (f.status !== undefined) and.push({ status: f.status });
  if (f.status_not !== undefined) and.push({ status: { $ne: f.status_not } });
  if (f.total_gt !== undefined) and.push({ total: { $gt: f.total_gt } });
  if (f.total_lt !== undefined) and.push({ total: { $lt: f.total_lt } });
  if (f.balance !== undefined) and.push({ balance: f.balance });
  if (f.currency !== undefined) and.push({ currency: f.currency });
  if (f.collection_method !== undefined) and.push({ collection_method: f.collection_method });
  if (f.kickback_status !== undefined) and.push({ kickback_status: f.kickback_status });
  if (f.imported !== undefined) and.push({ imported: f.imported });
  if (f.import_source !== undefined) and.push({ import_source: f.import_source });
  // Nothing is handed to debt collection by this platform: true matches no invoice.
  if (f.debt_collection === true) and.push({ id: NOTHING });
  if (f.subscription_uuid !== undefined) {
    const lines = isUuid(f.subscription_uuid)
      ? await em.find(
          InvoiceLineEntity,
          { organization_id: organizationId, subscription_id: f.subscription_uuid },
          { fields: ['invoice_id'] },
        )
      : [];
    and.push({ id: { $in: [...new Set(lines.map((line) => line.invoice_id))] } });
  }
  const ranges: [keyof InvoiceRow, unknown, unknown][] = [
    ['date', f.date_lte, f.date_gte],
    ['due_date', f.due_date_lte, f.due_date_gte],
    ['created_at', f.created_date_lte, f.created_date_gte],
    ['updated_at', f.last_modified_date_lte, f.last_modified_date_gte],
  ];
  for (const [column, lte, gte] of ranges) {
    if (lte !== undefined) and.push({ [column]: { $lte: lte } } as FilterQuery<InvoiceRow>);
    if (gte !== undefined) and.push({ [column]: { $gte: gte } } as FilterQuery<InvoiceRow>);
  }
  const { column, direction } = resolveOrdering(
    page.ordering || '-invoice_number',
    INVOICE_ORDERING,
    '-invoice_number',
  );
  const [rows, count] = await em.findAndCount(
    InvoiceEntity,
    { $and: and },
    {
      orderBy: [{ [column]: direction }, { id: 'asc' }],
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    },
  );
  return { count, rows };
}

/** One page of the organization's invoice lines (issued invoices only), filters invoice, account, subscription. */
export async function findInvoiceLines(
  em: EntityManager,
  organizationId: string,
  filter: invoicingV1.InvoiceLineFilter | undefined,
  page: PageSpec,
): Promise<{ count: number; rows: InvoiceLineRow[] }> {
  const f: Partial<invoicingV1.InvoiceLineFilter> = filter ?? {};
  const issued = await em.find(
    InvoiceEntity,
    { organization_id: organizationId, status: { $ne: 'pending' } },
    { fields: ['id'] },
  );
  const and: FilterQuery<InvoiceLineRow>[] = [
    { organization_id: organizationId },
    { invoice_id: { $in: issued.map((row) => row.id) } },
  ];
  if (f.invoice !== undefined) and.push({ invoice_id: uuidOrNothing(f.invoice) });
  if (f.account !== undefined) and.push({ account_id: uuidOrNothing(f.account) });
  if (f.subscription !== undefined) and.push({ subscription_id: uuidOrNothing(f.subscription) });
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
