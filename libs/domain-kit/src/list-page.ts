/** One page of a list as a use case reads it. */
export interface PageSpec {
  page: number;
  pageSize: number;
  /** Comma-separated REST field names, `-` for descending; already whitelisted by the gateway. */
  ordering: string;
}

/** Paging as it arrives over gRPC: zero values (an unset message) mean the contract's defaults. */
export function pageSpec(page: { page?: number; page_size?: number; ordering?: string } | undefined): PageSpec {
  return {
    page: Math.max(page?.page || 1, 1),
    pageSize: Math.min(Math.max(page?.page_size || 20, 1), 100),
    ordering: page?.ordering ?? '',
  };
}

/**
 * `-created_date` → { column: 'created_at', direction: 'desc' } through a list's whitelist (REST name
 * → column); the first term counts; unknown names fall back to the list's default ordering.
 */
export function resolveOrdering(
  ordering: string,
  whitelist: Readonly<Record<string, string>>,
  fallback: string,
): { column: string; direction: 'asc' | 'desc' } {
  const first = ordering.split(',')[0] ?? '';
  const descending = first.startsWith('-');
  const name = descending ? first.slice(1) : first;
  // Own members only: `constructor` or `toString` must not find Object.prototype's.
  const column = Object.hasOwn(whitelist, name) ? whitelist[name] : undefined;
  if (column) return { column, direction: descending ? 'desc' : 'asc' };
  return resolveOrdering(fallback, whitelist, fallback);
}
