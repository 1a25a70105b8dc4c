import { pageSpec } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import type { Logger } from '@billing/observability';
import { invoicingV1 } from '@billing/proto';
import type { AccessPoint } from '../einvoice/access-point.js';
import { confirmInvoices } from '../use-cases/announce-invoices.js';
import { awaitCharges } from '../use-cases/await-charges.js';
import { confirmCharges } from '../use-cases/confirm-charges.js';
import { deliverDueEinvoicesOfOrganization, getInvoiceUbl } from '../use-cases/deliver-einvoices.js';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { generateInvoice } from '../use-cases/generate-invoice.js';
import {
  applyCreditNote,
  changeCollectionMethod,
  creditInvoice,
  registerPayment,
  sendInvoice,
  settleCardPayment,
  updateKickbackStatus,
} from '../use-cases/invoice-actions.js';
import {
  getInvoice,
  getInvoiceLine,
  listInvoiceLines,
  listInvoices,
  listVatBillingPeriods,
} from '../use-cases/read-invoices.js';
import { sendDueReminders } from '../use-cases/send-reminders.js';
import { settleCardPayments } from '../use-cases/settle-card-payments.js';
import { upcomingInvoice } from '../use-cases/upcoming-invoice.js';
import { receivedCharge } from './charge-mapper.js';
import { draftLineHandlers } from './draft-line-handlers.js';
import { invoiceLineListFilter, invoiceLineMessage, invoiceListFilter, invoiceMessage } from './invoice-mapper.js';

const AWAIT_CHARGES_DEFAULT_MS = 60_000;

/** Transport only: decode, call the use case, encode. */
export function invoicingService(
  deps: InvoicingDeps,
  einvoices: { accessPoint: AccessPoint | null; logger: Logger },
): GrpcService {
  return unaryService(invoicingV1.InvoicingServiceService, {
    ...draftLineHandlers(deps),
    getInvoice: async (request, context) => {
      const { invoice, pdf } = await getInvoice(deps, context, request.uuid, request.with_pdf);
      return { invoice: invoiceMessage(invoice), pdf: pdf ?? Buffer.alloc(0) };
    },
    listInvoices: async (request, context) => {
      const filter = invoiceListFilter(request.filter);
      const { count, invoices } = await listInvoices(deps, context, filter, pageSpec(request.page));
      return { count, invoices: invoices.map(invoiceMessage) };
    },
    getInvoiceLine: async (request, context) => ({
      line: invoiceLineMessage(await getInvoiceLine(deps, context, request.id)),
    }),
    listInvoiceLines: async (request, context) => {
      const filter = invoiceLineListFilter(request.filter);
      const { count, lines } = await listInvoiceLines(deps, context, filter, pageSpec(request.page));
      return { count, lines: lines.map(invoiceLineMessage) };
    },
    listVatBillingPeriods: async (_request, context) => ({ periods: await listVatBillingPeriods(deps, context) }),
    updateKickbackStatus: async (request, context) => {
      const status = await updateKickbackStatus(deps, context, request.uuid, request.kickback_status ?? null);
      return status === null ? {} : { kickback_status: status };
    },
    registerPayment: async (request, context) => ({
      invoice: invoiceMessage(await registerPayment(deps, context, request.uuid, request.registration_date)),
    }),
    settleCardPayment: async (request, context) => ({
      invoice: invoiceMessage(await settleCardPayment(deps, context, request.uuid, request.payment, request.paid_date)),
    }),
    settleCardPayments: async (request, context) => ({
      settled: await settleCardPayments(
        deps,
        context,
        request.settlements.map(({ uuid, payment, paid_date }) => ({ uuid, payment, paidDate: paid_date })),
      ),
    }),
    changeCollectionMethod: async (request, context) => ({
      invoice: invoiceMessage(await changeCollectionMethod(deps, context, request.uuid, request.collection_method)),
    }),
    sendInvoice: async (request, context) => ({ sent_to: await sendInvoice(deps, context, request.uuid) }),
    creditInvoice: async (request, context) => ({
      credit_note: invoiceMessage(await creditInvoice(deps, context, request.uuid)),
    }),
    applyCreditNote: async (request, context) => {
      const amount = request.amount ?? null;
      const note = await applyCreditNote(deps, context, request.uuid, request.target_invoice, amount);
      return { credit_note: invoiceMessage(note) };
    },
    awaitCharges: async (request, context) => {
      await awaitCharges(deps, context, request.charge_ids, request.timeout_ms || AWAIT_CHARGES_DEFAULT_MS);
      return {};
    },
    // The organization's "now" is the context's (the advance sends the clock's new time).
    sendDueReminders: async (_request, context) => ({ sent: await sendDueReminders(deps, context) }),
    getInvoiceUbl: async (request, context) => ({ xml: await getInvoiceUbl(deps, context, request.uuid) }),
    deliverDueEinvoices: async (_request, context) => ({
      attempted: await deliverDueEinvoicesOfOrganization(deps, einvoices.accessPoint, context, einvoices.logger),
    }),
    confirmInvoices: async (request, context) => ({ existing: await confirmInvoices(deps, context, request.uuids) }),
    confirmCharges: async (request, context) => ({ invoiced: await confirmCharges(deps, context, request.uuids) }),
    generateInvoice: async (request, context) => {
      const invoices = await generateInvoice(deps, context, {
        account: request.account,
        collection_method: request.collection_method ?? null,
        payment_terms: request.payment_terms ?? null,
      });
      return { invoices: invoices.map(invoiceMessage) };
    },
    upcomingInvoice: async (request, context) => {
      const invoice = await upcomingInvoice(deps, context, request.account, request.charges.map(receivedCharge));
      return invoice ? { invoice: invoiceMessage(invoice) } : {};
    },
  });
}
