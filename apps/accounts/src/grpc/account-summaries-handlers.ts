import type { RequestContext } from '@billing/observability';
import type { accountsV1 } from '@billing/proto';
import type { AccountListFilter } from '../domain/account-list.js';
import { getAccountSummaries, listAccountUuids } from '../use-cases/account-summaries.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import { summaryMessage } from './account-mapper.js';

/** AccountsService's embedding calls (transport only), spread into accountsService. */
export function accountSummaryHandlers(deps: AccountsDeps) {
  return {
    getAccountSummaries: async (
      request: accountsV1.GetAccountSummariesRequest,
      context: RequestContext,
    ): Promise<accountsV1.GetAccountSummariesResponse> => ({
      accounts: (await getAccountSummaries(deps, context, request.uuids, request.codes)).map(summaryMessage),
    }),
    listAccountUuids: async (
      request: accountsV1.ListAccountUuidsRequest,
      context: RequestContext,
    ): Promise<accountsV1.ListAccountUuidsResponse> => ({
      uuids: await listAccountUuids(deps, context, (request.filter ?? {}) as AccountListFilter),
    }),
  };
}
