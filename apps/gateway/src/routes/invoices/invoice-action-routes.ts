import type { ServiceClients } from '../../clients/service-clients.js';
import { defineRoute, type Route } from '../../http/index.js';
import { UuidParams } from '../shared/path-params.js';
import { INVOICE_PATH, presentInvoiceWithPdf } from './invoice-embeds.js';
import {
  ApplyCreditNoteBody,
  ChangeCollectionMethodBody,
  InvoiceSchema,
  RegisterPaymentBody,
  SendInvoiceSchema,
} from './invoice-schemas.js';

const TAGS = ['invoices'];

/** An action path and its underscore twin (docs/api.md "Hyphen and underscore twins"). */
const twins = (action: string) => ({
  path: `${INVOICE_PATH}${action}/`,
  aliases: action.includes('-') ? [`${INVOICE_PATH}${action.replaceAll('-', '_')}/`] : [],
});

/**
 * The invoice actions of gaps.md §7. Each answers 200 (an action, gaps.md §1); a refusal by the
 * invoice's state is 400 `{"error": "<why>"}` as the contract says for invoice actions, while a body
 * that fails validation is DRF's `{"<field>": [...]}`. Actions answering with an invoice return it
 * in the detail view, PDF included, read after the change.
 */
export function invoiceActionRoutes(clients: ServiceClients): Route[] {
  const { invoicing } = clients;

  const registerPayment = defineRoute({
    method: 'post',
    ...twins('register-payment'),
    operationId: 'registerInvoicePayment',
    summary: 'Record payment of the balance on registration_date; the invoice becomes paid',
    tags: TAGS,
    params: UuidParams,
    body: RegisterPaymentBody,
    refusalBodyKey: 'error',
    response: { status: 200, schema: InvoiceSchema },
    handler: async ({ params, body, req }) => {
      await invoicing.call('registerPayment', { uuid: params.uuid, registration_date: body.registration_date });
      return presentInvoiceWithPdf(clients, req, params.uuid);
    },
  });

  const changeCollectionMethod = defineRoute({
    method: 'post',
    ...twins('change-collection-method'),
    operationId: 'changeInvoiceCollectionMethod',
    summary: 'Change how an unsettled invoice is collected',
    tags: TAGS,
    params: UuidParams,
    body: ChangeCollectionMethodBody,
    refusalBodyKey: 'error',
    response: { status: 200, schema: InvoiceSchema },
    handler: async ({ params, body, req }) => {
      await invoicing.call('changeCollectionMethod', {
        uuid: params.uuid,
        collection_method: body.collection_method,
      });
      return presentInvoiceWithPdf(clients, req, params.uuid);
    },
  });

  const send = defineRoute({
    method: 'post',
    ...twins('send'),
    operationId: 'sendInvoice',
    summary: 'E-mail the invoice again to the account’s recipients that receive invoices',
    description: 'The body is ignored. `sent_to` (ours) lists the addresses it went to.',
    tags: TAGS,
    params: UuidParams,
    refusalBodyKey: 'error',
    response: { status: 200, schema: SendInvoiceSchema },
    handler: async ({ params }) => {
      const { sent_to } = await invoicing.call('sendInvoice', { uuid: params.uuid });
      return { detail: sentDetail(sent_to), sent_to };
    },
  });

  const credit = defineRoute({
    method: 'post',
    ...twins('credit'),
    operationId: 'creditInvoice',
    summary: 'Issue a credit note for the invoice’s full balance; answers with the credit note',
    description: 'The body is ignored. 200, not 201: an action (gaps.md §1).',
    tags: TAGS,
    params: UuidParams,
    refusalBodyKey: 'error',
    response: { status: 200, schema: InvoiceSchema },
    handler: async ({ params, req }) => {
      const { credit_note } = await invoicing.call('creditInvoice', { uuid: params.uuid });
      return presentInvoiceWithPdf(clients, req, credit_note!.uuid);
    },
  });

  const applyCreditNote = defineRoute({
    method: 'post',
    ...twins('apply-credit-note'),
    operationId: 'applyCreditNote',
    summary: 'Move credit from this credit note to target_invoice; answers with the credit note',
    description:
      'amount defaults to the credit note’s balance (at most the target’s). Every refusal, an unknown target_invoice included, is 400 {"error"}.',
    tags: TAGS,
    params: UuidParams,
    body: ApplyCreditNoteBody,
    refusalBodyKey: 'error',
    response: { status: 200, schema: InvoiceSchema },
    handler: async ({ params, body, req }) => {
      await invoicing.call('applyCreditNote', {
        uuid: params.uuid,
        target_invoice: body.target_invoice,
        amount: body.amount,
      });
      return presentInvoiceWithPdf(clients, req, params.uuid);
    },
  });

  return [registerPayment, changeCollectionMethod, send, credit, applyCreditNote];
}

/** The `detail` of a send: who the invoice went to (the service refuses when nobody receives invoices). */
export const sentDetail = (sentTo: readonly string[]): string => `Invoice sent to ${sentTo.join(', ')}.`;
