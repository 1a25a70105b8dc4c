import type { ExportSnapshot } from '@billing/exports';
import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invoicedMonths, streamInvoices, streamVatInvoices } from '../db/invoice-queries.js';
import { invoiceView } from '../db/invoice-view.js';
import { exchangeRateOn } from '../domain/exchange-rates.js';
import type { InvoiceListFilter } from '../domain/invoice-list.js';
import type { InvoiceView } from '../domain/invoice-view.js';
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
 * The invoice list's rows for an export: every issued invoice matching the list's filters, in its
 * ordering, without lines (as the list shows them), read with a cursor in the export's snapshot.
 */
export async function exportInvoices(
  snapshot: ExportSnapshot,
  organizationId: string,
  filter: InvoiceListFilter,
  ordering: string,
): Promise<ExportRows<InvoiceView>> {
  const { count, rows } = await streamInvoices(snapshot, organizationId, filter, ordering);
  async function* views() {
    let read = 0;
    for await (const row of rows) yield { row: invoiceView(row, []), read: ++read };
  }
  return { total: count, rows: views() };
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
