import { type GrpcService, unaryService } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';
import { announceAccountsInvoices, announceInvoices } from '../use-cases/announce-invoices.js';
import { applyReadModelEvents, type ReadModelDeps } from '../use-cases/apply-read-model-events.js';

/**
 * Transport only: producers hand over the events of a change they just committed; invoicing
 * announces the invoices it is about to commit.
 */
export function readModelService(
  deps: ReadModelDeps,
  moreFeeds?: Parameters<typeof applyReadModelEvents>[1],
): GrpcService {
  const applyEvents = applyReadModelEvents(deps, moreFeeds);
  return unaryService(accountsV1.ReadModelServiceService, {
    applyEvents: async (request, context) => ({ applied: await applyEvents(context, request.envelopes) }),
    announceInvoices: async (request, context) => {
      await announceInvoices(deps, context, request.account, request.invoices);
      return {};
    },
    announceAccountsInvoices: async (request, context) => {
      await announceAccountsInvoices(
        deps,
        context,
        request.announcements.map(({ account, invoices }) => ({ accountId: account, invoiceIds: invoices })),
      );
      return {};
    },
  });
}
