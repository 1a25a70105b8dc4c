import { createHash } from 'node:crypto';
import { pageSpec } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import type { invoicingV1 } from '@billing/proto';
import { requireOrganization } from '@billing/runtime';
import { InvoiceLineEntity } from '../db/entities/invoice-line.entity.js';
import { findInvoiceLines, findInvoices, invoicedMonths } from '../db/invoice-queries.js';
import { linesOf, requireInvoice } from '../db/invoice-store.js';
import { renderInvoicePdf } from '../documents/invoice-pdf.js';
import { invoiceLineMessage, invoiceMessage } from '../grpc/invoice-mapper.js';
import type { InvoicingDeps } from './deps.js';

export async function getInvoice(
  deps: InvoicingDeps,
  context: RequestContext,
  request: invoicingV1.GetInvoiceRequest,
): Promise<invoicingV1.GetInvoiceResponse> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const row = await requireInvoice(em, organizationId, request.uuid);
  const invoice = invoiceMessage(row, (await linesOf(em, [row.id])).get(row.id) ?? []);
  return { invoice, pdf: request.with_pdf ? await renderInvoicePdf(invoice) : Buffer.alloc(0) };
}

export async function listInvoices(
  deps: InvoicingDeps,
  context: RequestContext,
  request: invoicingV1.ListInvoicesRequest,
): Promise<invoicingV1.ListInvoicesResponse> {
  const organizationId = requireOrganization(context);
  const { count, rows } = await findInvoices(
    deps.orm.em.fork(),
    organizationId,
    request.filter,
    pageSpec(request.page),
  );
  return { count, invoices: rows.map((row) => invoiceMessage(row, [])) };
}

export async function getInvoiceLine(
  deps: InvoicingDeps,
  context: RequestContext,
  id: string,
): Promise<invoicingV1.InvoiceLine> {
  const organizationId = requireOrganization(context);
  if (!/^\d{1,18}$/.test(id)) throw AppError.notFound();
  const em = deps.orm.em.fork();
  const line = await em.findOne(InvoiceLineEntity, { organization_id: organizationId, id: Number(id) });
  if (!line) throw AppError.notFound();
  await requireInvoice(em, organizationId, line.invoice_id);
  return invoiceLineMessage(line);
}

export async function listInvoiceLines(
  deps: InvoicingDeps,
  context: RequestContext,
  request: invoicingV1.ListInvoiceLinesRequest,
): Promise<invoicingV1.ListInvoiceLinesResponse> {
  const organizationId = requireOrganization(context);
  const { count, rows } = await findInvoiceLines(
    deps.orm.em.fork(),
    organizationId,
    request.filter,
    pageSpec(request.page),
  );
  return { count, lines: rows.map(invoiceLineMessage) };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A stable uuid for (organization, YYYY-MM): the period's identity across calls. */
function periodUuid(organizationId: string, month: string): string {
  const hex = createHash('sha256').update(`${organizationId}:vat-period:${month}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Monthly VAT periods (by invoice date, the organization's local day) that have invoices, newest first. */
export async function listVatBillingPeriods(
  deps: InvoicingDeps,
  context: RequestContext,
): Promise<invoicingV1.VatBillingPeriod[]> {
  const organizationId = requireOrganization(context);
  const rows = await invoicedMonths(deps.orm.em.fork(), organizationId);
  return rows.map(({ month }) => ({
    uuid: periodUuid(organizationId, month),
    display_name: `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`,
  }));
}
