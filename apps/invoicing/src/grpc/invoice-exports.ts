import { AppError } from '@billing/errors';
import { type ExportSource, pagesOf } from '@billing/exports';
import { invoicingV1 } from '@billing/proto';
import { VAT_EXPORT_COUNTRIES, VAT_EXPORT_GRANULARITIES, type VatExportRow } from '../domain/vat-export.js';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { exportInvoiceCsv, exportVat, type VatExportRequest } from '../use-cases/export-invoices.js';
import { invoiceListFilter } from './invoice-mapper.js';

/** Rows per stored page of the VAT export: a page is one VatExportPage. */
const PAGE_ROWS = 500;

/**
 * The invoice list's export ("invoices"): its params are a ListInvoicesRequest (the list's filter
 * and ordering); its pages are CSV records, written by PostgreSQL as the gateway's CSV of the list
 * shows them (db/invoice-csv-query.ts), which the gateway sends on as they are.
 */
export function invoiceListExport(deps: Pick<InvoicingDeps, 'directory'>): ExportSource {
  return {
    kind: 'invoices',
    async open(snapshot, { organizationId, params, context }) {
      const request = invoicingV1.ListInvoicesRequest.decode(params);
      return exportInvoiceCsv(
        deps,
        snapshot,
        organizationId,
        context,
        invoiceListFilter(request.filter),
        request.page?.ordering ?? '',
      );
    },
  };
}

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
    async open(snapshot, { organizationId, params, context }) {
      const { total, rows } = await exportVat(deps, snapshot, organizationId, context, vatExportRequest(params));
      const encode = (batch: VatExportRow[]) =>
        invoicingV1.VatExportPage.encode({ rows: batch.map(vatRowMessage) }).finish();
      return { total, pages: pagesOf(rows, PAGE_ROWS, encode) };
    },
  };
}
