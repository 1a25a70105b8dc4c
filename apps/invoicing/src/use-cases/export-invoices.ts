import { csvPagesOfCopy, type ExportRun, type ExportSnapshot, gzippedPages } from '@billing/exports';
import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invoiceCsvQuery } from '../db/invoice-csv-query.js';
import {
  invoicedMonths,
  invoiceListAccounts,
  invoiceListOrdering,
  invoiceListSelection,
  streamVatInvoices,
} from '../db/invoice-queries.js';
import { invoiceView } from '../db/invoice-view.js';
import { exchangeRateOn } from '../domain/exchange-rates.js';
import type { InvoiceListFilter } from '../domain/invoice-list.js';
import { KICKBACK_FEATURE } from '../domain/kickback.js';
import { vatBillingPeriod } from '../domain/vat-billing-period.js';
import {
  VatAccountTotals,
  type VatExportOptions,
  type VatExportRow,
  vatAccountKey,
  vatExportKeeps,
  vatInvoiceRow,
} from '../domain/vat-export.js';
import type { InvoicingDeps } from './deps.js';

/** Rows of an export and how far through the invoices read they are. */
export interface ExportRows<T> {
  /** The invoices the export reads (its progress counts through them). */
  total: number;
  rows: AsyncIterable<{ row: T; read: number }>;
}

/**
 * The invoice list's export as CSV records: every issued invoice matching the list's filters, in
 * its ordering, as the list shows it (the embedded account as the accounts service has it now,
 * kickback_status only with the kickback feature), written by PostgreSQL from one set-based query
 * (COPY) in the export's snapshot. The accounts are asked for once per job, not per row.
 */
export async function exportInvoiceCsv(
  deps: Pick<InvoicingDeps, 'directory'>,
  snapshot: ExportSnapshot,
  organizationId: string,
  context: RequestContext,
  filter: InvoiceListFilter,
  ordering: string,
): Promise<ExportRun> {
  // The organization (kickback feature) is asked for while the invoices are counted.
  const [{ selection, count, accounts }, seller] = await Promise.all([
    (async () => {
      const selection = await invoiceListSelection(snapshot.em, organizationId, filter);
      const { count, accountIds } = await invoiceListAccounts(snapshot.em, selection);
      return { selection, count, accounts: await deps.directory.accountSummaries(context, accountIds) };
    })(),
    deps.directory.seller(context),
  ]);
  const csv = invoiceCsvQuery({
    selection,
    ordering: invoiceListOrdering(ordering),
    accounts,
    kickbackEnabled: seller.features.includes(KICKBACK_FEATURE),
  });
  return { total: count, pages: gzippedPages(csvPagesOfCopy(snapshot.copyCsv(csv))) };
}

export interface VatExportRequest {
  /** A VAT billing period's uuid (ListVatBillingPeriods); null: every invoice. */
  period: string | null;
  countries: VatExportOptions['countries'];
  granularity: VatExportOptions['granularity'];
}

/**
 * The VAT export's rows (gaps.md §9): a row per invoice and credit note of the period, or per
 * account, currency and VAT rate, of the buyers `countries` keeps; base-currency amounts in the
 * organization's base currency (the accounts directory's). A period no month has matches nothing.
 */
export async function exportVat(
  deps: Pick<InvoicingDeps, 'directory'>,
  snapshot: ExportSnapshot,
  organizationId: string,
  context: RequestContext,
  request: VatExportRequest,
): Promise<ExportRows<VatExportRow>> {
  const month = request.period === null ? null : await periodMonth(snapshot.em, organizationId, request.period);
  if (month === undefined) return { total: 0, rows: (async function* () {})() };
  const seller = await deps.directory.seller(context);
  const options: VatExportOptions = {
    countries: request.countries,
    granularity: request.granularity,
    baseCurrency: seller.base_currency,
    // The rate in force on the invoice's date; none yet: no base amounts (docs/api.md "Exports").
    exchangeRate: (currency, date) => exchangeRateOn(seller.exchange_rates, currency, date),
  };
  const { count, rows } = await streamVatInvoices(snapshot, organizationId, month, request.granularity === 'account');
  async function* vatRows() {
    let read = 0;
    const totals = new VatAccountTotals(options);
    for await (const row of rows) {
      read += 1;
      const invoice = invoiceView(row, []);
      if (!vatExportKeeps(invoice, options)) continue;
      if (request.granularity === 'invoice') {
        yield { row: vatInvoiceRow(invoice, options), read };
        continue;
      }
      if (totals.key !== null && totals.key !== vatAccountKey(invoice))
        for (const summed of totals.take()) yield { row: summed, read };
      totals.add(invoice);
    }
    for (const summed of totals.take()) yield { row: summed, read };
  }
  return { total: count, rows: vatRows() };
}

/** The month (YYYY-MM) of the organization's VAT billing period `uuid`, undefined when it has none. */
async function periodMonth(em: EntityManager, organizationId: string, uuid: string): Promise<string | undefined> {
  const months = await invoicedMonths(em, organizationId);
  return months.map(({ month }) => month).find((month) => vatBillingPeriod(organizationId, month).uuid === uuid);
}
