import type { PageSpec } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { InvoiceLineEntity } from '../db/entities/invoice-line.entity.js';
import { findInvoiceLines, findInvoices, invoicedMonths } from '../db/invoice-queries.js';
import { requireInvoice } from '../db/invoice-store.js';
import { invoiceLineView, invoiceView, invoiceViewWithLines } from '../db/invoice-view.js';
import { renderInvoicePdf } from '../documents/invoice-pdf.js';
import type { InvoiceLineListFilter, InvoiceListFilter } from '../domain/invoice-list.js';
import type { InvoiceLineView, InvoiceView } from '../domain/invoice-view.js';
import { type VatBillingPeriod, vatBillingPeriod } from '../domain/vat-billing-period.js';
import type { InvoicingDeps } from './deps.js';

/** The organization's issued invoice with its lines, and its PDF when `withPdf` (else null). */
export async function getInvoice(
  deps: InvoicingDeps,
  context: RequestContext,
  uuid: string,
  withPdf: boolean,
): Promise<{ invoice: InvoiceView; pdf: Buffer | null }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const invoice = await invoiceViewWithLines(em, await requireInvoice(em, organizationId, uuid));
  return { invoice, pdf: withPdf ? await renderInvoicePdf(invoice) : null };
}

/** A page of the organization's issued invoices matching `filter`, without their lines. */
export async function listInvoices(
  deps: InvoicingDeps,
  context: RequestContext,
  filter: InvoiceListFilter,
  page: PageSpec,
): Promise<{ count: number; invoices: InvoiceView[] }> {
  const organizationId = requireOrganization(context);
  const { count, rows } = await findInvoices(deps.orm.em.fork(), organizationId, filter, page);
  return { count, invoices: rows.map((row) => invoiceView(row, [])) };
}

export async function getInvoiceLine(
  deps: InvoicingDeps,
  context: RequestContext,
  id: string,
): Promise<InvoiceLineView> {
  const organizationId = requireOrganization(context);
  if (!/^\d{1,18}$/.test(id)) throw AppError.notFound();
  const em = deps.orm.em.fork();
  const line = await em.findOne(InvoiceLineEntity, { organization_id: organizationId, id: Number(id) });
  if (!line) throw AppError.notFound();
  await requireInvoice(em, organizationId, line.invoice_id);
  return invoiceLineView(line);
}

export async function listInvoiceLines(
  deps: InvoicingDeps,
  context: RequestContext,
  filter: InvoiceLineListFilter,
  page: PageSpec,
): Promise<{ count: number; lines: InvoiceLineView[] }> {
  const organizationId = requireOrganization(context);
  const { count, rows } = await findInvoiceLines(deps.orm.em.fork(), organizationId, filter, page);
  return { count, lines: rows.map(invoiceLineView) };
}

/** Monthly VAT periods (by invoice date, the organization's local day) that have invoices, newest first. */
export async function listVatBillingPeriods(deps: InvoicingDeps, context: RequestContext): Promise<VatBillingPeriod[]> {
  const organizationId = requireOrganization(context);
  const rows = await invoicedMonths(deps.orm.em.fork(), organizationId);
  return rows.map(({ month }) => vatBillingPeriod(organizationId, month));
}
