import type { ExportPage, ExportSource } from '@billing/exports';
import { accountsV1 } from '@billing/proto';
import type { AccountListFilter } from '../domain/account-list.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import { exportAccounts } from '../use-cases/read-accounts.js';
import { accountsReply } from './account-replies.js';

/**
 * The account list's export ("accounts"): params a ListAccountsRequest (the list's filter and
 * ordering), pages ListAccountsResponses with what their subscription sets embed, each as
 * ListAccounts answers a page, so the gateway presents them as it presents the list.
 */
export function accountListExport(deps: AccountsDeps): ExportSource {
  return {
    kind: 'accounts',
    async open(snapshot, { organizationId, params, context }) {
      const request = accountsV1.ListAccountsRequest.decode(params);
      const { total, batches } = await exportAccounts(
        snapshot,
        organizationId,
        (request.filter ?? {}) as AccountListFilter,
        request.page?.ordering ?? '',
      );
      async function* pages(): AsyncIterable<ExportPage> {
        for await (const { views, read } of batches) {
          const reply = await accountsReply(deps, context, views);
          const data = accountsV1.ListAccountsResponse.encode({ count: views.length, ...reply }).finish();
          yield { data, rows: views.length, read };
        }
      }
      return { total, pages: pages() };
    },
  };
}
