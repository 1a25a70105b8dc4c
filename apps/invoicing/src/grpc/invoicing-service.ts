import { type GrpcService, unaryService } from '@billing/grpc';
import { invoicingV1 } from '@billing/proto';
import { confirmInvoices } from '../use-cases/announce-invoices.js';
import { awaitCharges } from '../use-cases/await-charges.js';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { generateInvoice } from '../use-cases/generate-invoice.js';
import {
  applyCreditNote,
  changeCollectionMethod,
  creditInvoice,
  registerPayment,
  sendInvoice,
  updateKickbackStatus,
} from '../use-cases/invoice-actions.js';
import {
  getInvoice,
  getInvoiceLine,
  listInvoiceLines,
  listInvoices,
  listVatBillingPeriods,
} from '../use-cases/read-invoices.js';
import { upcomingInvoice } from '../use-cases/upcoming-invoice.js';
import { draftLineHandlers } from './draft-line-handlers.js';

const AWAIT_CHARGES_DEFAULT_MS = 60_000;

/** Transport only: decode, call the use case, encode. */
export function invoicingService(deps: InvoicingDeps): GrpcService {
  return unaryService(invoicingV1.InvoicingServiceService, {
    ...draftLineHandlers(deps),
    getInvoice: (request, context) => getInvoice(deps, context, request),
    listInvoices: (request, context) => listInvoices(deps, context, request),
    getInvoiceLine: async (request, context) => ({ line: await getInvoiceLine(deps, context, request.id) }),
    listInvoiceLines: (request, context) => listInvoiceLines(deps, context, request),
    listVatBillingPeriods: async (_request, context) => ({ periods: await listVatBillingPeriods(deps, context) }),
    updateKickbackStatus: async (request, context) => {
      const status = await updateKickbackStatus(deps, context, request);
      return status === null ? {} : { kickback_status: status };
    },
    registerPayment: async (request, context) => ({
      invoice: await registerPayment(deps, context, request.uuid, request.registration_date),
    }),
    changeCollectionMethod: async (request, context) => ({
      invoice: await changeCollectionMethod(deps, context, request.uuid, request.collection_method),
    }),
    sendInvoice: async (request, context) => ({ sent_to: await sendInvoice(deps, context, request.uuid) }),
    creditInvoice: async (request, context) => ({ credit_note: await creditInvoice(deps, context, request.uuid) }),
    applyCreditNote: async (request, context) => ({ credit_note: await applyCreditNote(deps, context, request) }),
    awaitCharges: async (request, context) => {
      await awaitCharges(deps, context, request.charge_ids, request.timeout_ms || AWAIT_CHARGES_DEFAULT_MS);
      return {};
    },
    confirmInvoices: async (request, context) => ({ existing: await confirmInvoices(deps, context, request.uuids) }),
    generateInvoice: async (request, context) => ({ invoices: await generateInvoice(deps, context, request) }),
    upcomingInvoice: async (request, context) => {
      const invoice = await upcomingInvoice(deps, context, request.account, request.charges);
      return invoice ? { invoice } : {};
    },
  });
}
