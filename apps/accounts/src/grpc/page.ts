import type { commonV1 } from '@billing/proto';
import type { PageSpec } from '../domain/account-list.js';

/** The gateway validates paging; zero values (an unset message) mean the contract's defaults. */
export function pageSpec(page: commonV1.PageRequest | undefined): PageSpec {
  return {
    page: Math.max(page?.page || 1, 1),
    pageSize: Math.min(Math.max(page?.page_size || 20, 1), 100),
    ordering: page?.ordering ?? '',
  };
}
