import { AppError } from '@billing/errors';
import { type ExportSource, pagesOf } from '@billing/exports';
import { invoicingV1 } from '@billing/proto';
import { VAT_EXPORT_COUNTRIES, VAT_EXPORT_GRANULARITIES, type VatExportRow } from '../domain/vat-export.js';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { exportInvoices, exportVat, type VatExportRequest } from '../use-cases/export-invoices.js';
import { invoiceListFilter, invoiceMessage } from './invoice-mapper.js';

/** Rows per stored page: a page of the invoice list is one ListInvoicesResponse. */
const PAGE_ROWS = 500;

/**
 * The invoice list's export ("invoices"): its params are a ListInvoicesRequest (the list's filter
 * and ordering), its pages ListInvoicesResponses, so the gateway presents them as it presents the
 * list.
 */
export const invoiceListExport: ExportSource = {
  kind: 'invoices',
  async open({ cursor }, { organizationId, params }) {
    const request = invoicingV1.ListInvoicesRequest.decode(params);
    const { total, rows } = await exportInvoices(
      cursor,
      organizationId,
      invoiceListFilter(request.filter),
      request.page?.ordering ?? '',
    );
    const encode = (invoices: Parameters<typeof invoiceMessage>[0][]) =>
      invoicingV1.ListInvoicesResponse.encode({
        count: invoices.length,
        invoices: invoices.map(invoiceMessage),
      }).finish();
    return { total, pages: pagesOf(rows, PAGE_ROWS, encode) };
  },
};

function vatExportRequest(params: Uint8Array): VatExportRequest {
  const request = invoicingV1.VatExportRequest.decode(params);
  const countries = VAT_EXPORT_COUNTRIES.find((choice) => choice === (request.export_countries || 'world_wide'));
  const granularity = VAT_EXPORT_GRANULARITIES.find((choice) => choice === (request.export_granularity || 'invoice'));
  if (!countries)
    throw AppError.invalidField('export_countries', `"${request.export_countries}" is not a valid choice.`);
  if (!granularity) {
    throw AppError.invalidField('export_granularity', `"${request.export_granularity}" is not a valid choice.`);
  }
  return { period: request.export_period ?? null, countries, granularity };
}

function vatRowMessage(row: VatExportRow): invoicingV1.VatExportRow {
  const { invoice_number, ...rest } = row;
  return { ...rest, ...(invoice_number === null ? {} : { invoice_number }) };
}

/** The VAT export ("vat"): params a VatExportRequest, pages VatExportPages. */
export function vatExport(deps: Pick<InvoicingDeps, 'directory'>): ExportSource {
  return {
    kind: 'vat',
    check: (params) => void vatExportRequest(params),
    async open({ cursor }, { organizationId, params, context }) {
      const { total, rows } = await exportVat(deps, cursor, organizationId, context, vatExportRequest(params));
      const encode = (batch: VatExportRow[]) =>
        invoicingV1.VatExportPage.encode({ rows: batch.map(vatRowMessage) }).finish();
      return { total, pages: pagesOf(rows, PAGE_ROWS, encode) };
    },
  };
}
