import { createGrpcClient } from '@billing/grpc';
import { invoicingV1 } from '@billing/proto';
import type { CardInvoice, Invoicing } from '../domain/directory.js';

const PAGE_SIZE = 100;

export function cardInvoiceOf(invoice: invoicingV1.Invoice): CardInvoice {
  return {
    invoiceId: invoice.uuid,
    accountId: invoice.account,
    invoiceNumber: invoice.invoice_number ?? '',
    status: invoice.status,
    collectionMethod: invoice.collection_method,
    isCreditNote: invoice.is_credit_note,
    balance: invoice.balance,
    currency: invoice.currency,
    issuedAt: invoice.created_date ?? null,
  };
}

/** The Invoicing client over gRPC. */
export function invoicingClient(address: string): Invoicing {
  const invoicing = createGrpcClient(invoicingV1.InvoicingServiceClient, address);
  return {
    async settle(context, invoiceId, paymentId, paidDate) {
      await invoicing.call(
        'settleCardPayment',
        { uuid: invoiceId, payment: paymentId, paid_date: paidDate },
        { context },
      );
    },
    async settleMany(context, settlements) {
      const reply = await invoicing.call(
        'settleCardPayments',
        {
          settlements: settlements.map(({ invoiceId, paymentId, paidDate }) => ({
            uuid: invoiceId,
            payment: paymentId,
            paid_date: paidDate,
          })),
        },
        { context },
      );
      return new Set(reply.settled);
    },
    async openCardInvoices(context) {
      const found: CardInvoice[] = [];
      for (let page = 1; ; page += 1) {
        const reply = await invoicing.call(
          'listInvoices',
          {
            page: { page, page_size: PAGE_SIZE, ordering: 'invoice_number' },
            filter: { collection_method: 'payment_card', status: 'open', search_accounts: [] },
          },
          { context },
        );
        found.push(...reply.invoices.map(cardInvoiceOf));
        if (page * PAGE_SIZE >= reply.count) return found;
      }
    },
    close() {
      invoicing.close();
    },
  };
}
