import { pageSpec } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';
import type { AccountListFilter } from '../domain/account-list.js';
import { createAccount } from '../use-cases/create-account.js';
import { deleteAccount } from '../use-cases/delete-account.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import { listPaymentGatewayAccounts, setPaymentGatewayAccounts } from '../use-cases/payment-gateway-accounts.js';
import { getAccountsByUuid, listAccounts, readAccount } from '../use-cases/read-accounts.js';
import {
  createRecipient,
  deleteRecipient,
  getRecipient,
  listRecipients,
  updateRecipient,
} from '../use-cases/recipients.js';
import { updateAccount } from '../use-cases/update-account.js';
import {
  accountMessage,
  accountWrite,
  paymentGatewayAccountMessage,
  recipientMessage,
  recipientWrite,
} from './account-mapper.js';
import { accountReadReply, accountReply, accountsReply } from './account-replies.js';
import { accountSummaryHandlers } from './account-summaries-handlers.js';
import { encodeGetAccountResponse } from './stored-account-sets.js';

/** The service's definition, GetAccount's reply encoded with the stored snapshots (stored-account-sets.ts). */
const ACCOUNTS_SERVICE_DEFINITION = {
  ...accountsV1.AccountsServiceService,
  getAccount: { ...accountsV1.AccountsServiceService.getAccount, responseSerialize: encodeGetAccountResponse },
};

/** Transport only: decode, call the use case, encode. */
export function accountsService(deps: AccountsDeps): GrpcService {
  return unaryService(ACCOUNTS_SERVICE_DEFINITION, {
    ...accountSummaryHandlers(deps),
    createAccount: async (request, context) => {
      const view = await createAccount(deps, context, accountWrite(request.account, request.present_fields));
      return { account: accountMessage(view) };
    },
    getAccount: async (request, context) => {
      const { view, organizationPaymentTerms } = await readAccount(deps, context, request.code);
      return accountReadReply(deps, context, view, { default_payment_terms: organizationPaymentTerms });
    },
    getAccountsByUuid: async (request, context) => ({
      accounts: (await getAccountsByUuid(deps, context, request.uuids)).map(accountMessage),
    }),
    listAccounts: async (request, context) => {
      const { count, accounts } = await listAccounts(
        deps,
        context,
        (request.filter ?? {}) as AccountListFilter,
        pageSpec(request.page),
      );
      return { count, ...(await accountsReply(deps, context, accounts)) };
    },
    updateAccount: async (request, context) => {
      const write = accountWrite(request.account, request.present_fields);
      return accountReply(deps, context, await updateAccount(deps, context, request.code, write, request.replace));
    },
    deleteAccount: async (request, context) => {
      const outcome = await deleteAccount(deps, context, {
        code: request.code,
        existingInvoices: request.existing_invoices,
        absentInvoices: request.absent_invoices,
        invoicedCharges: request.invoiced_charges,
        uninvoicedCharges: request.uninvoiced_charges,
        lastRound: request.last_round,
      });
      return outcome.deleted
        ? { deleted: true, unconfirmed_invoices: [], unconfirmed_charges: [] }
        : {
            deleted: false,
            unconfirmed_invoices: outcome.unconfirmedInvoices,
            unconfirmed_charges: outcome.unconfirmedCharges,
          };
    },
    listPaymentGatewayAccounts: async (request, context) => ({
      payment_gateway_accounts: (await listPaymentGatewayAccounts(deps, context, request.account_code)).map(
        paymentGatewayAccountMessage,
      ),
    }),
    setPaymentGatewayAccounts: async (request, context) => ({
      payment_gateway_accounts: (
        await setPaymentGatewayAccounts(deps, context, request.account_code, request.payment_gateway_accounts)
      ).map(paymentGatewayAccountMessage),
    }),
    createRecipient: async (request, context) => {
      const write = recipientWrite(request.recipient, request.present_fields);
      return { recipient: recipientMessage(await createRecipient(deps, context, write)) };
    },
    getRecipient: async (request, context) => ({
      recipient: recipientMessage(await getRecipient(deps, context, request.uuid)),
    }),
    listRecipients: async (request, context) => {
      const { count, recipients } = await listRecipients(deps, context, request.account, pageSpec(request.page));
      return { count, recipients: recipients.map(recipientMessage) };
    },
    updateRecipient: async (request, context) => {
      const write = recipientWrite(request.recipient, request.present_fields);
      return {
        recipient: recipientMessage(await updateRecipient(deps, context, request.uuid, write, request.replace)),
      };
    },
    deleteRecipient: async (request, context) => {
      await deleteRecipient(deps, context, request.uuid);
      return {};
    },
  });
}
