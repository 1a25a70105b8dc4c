import { invalidPage } from '../errors/http-error.js';
import type { PageRequest } from './page-request.js';

/** What a list handler returns: the total matching the filters, and this page's items. */
export interface ListPage<Item> {
  count: number;
  results: Item[];
}

/** The contract's list envelope. */
export interface PageEnvelope<Item> {
  count: number;
  next: string | null;
  previous: string | null;
  results: Item[];
}

/**
 * Wraps a page in the envelope with absolute next/previous URLs that keep every other query
 * parameter. As in DRF, a page past the last one is 404 "Invalid page." (page 1 of nothing is
 * fine), the previous link of page 2 drops `page` altogether, and parameters come out sorted.
 */
export function buildPageEnvelope<Item>(requestUrl: URL, page: PageRequest, list: ListPage<Item>): PageEnvelope<Item> {
  const pageCount = Math.max(1, Math.ceil(list.count / page.pageSize));
  if (page.page > pageCount) throw invalidPage();
  return {
    count: list.count,
    next: page.page < pageCount ? withPage(requestUrl, page.page + 1) : null,
    previous: page.page > 1 ? withPage(requestUrl, page.page - 1) : null,
    results: list.results,
  };
}

function withPage(url: URL, page: number): string {
  const values = new Map<string, string[]>();
  for (const [key, value] of url.searchParams) values.set(key, [...(values.get(key) ?? []), value]);
  if (page === 1) values.delete('page');
  else values.set('page', [String(page)]);

  const search = new URLSearchParams();
  for (const key of [...values.keys()].sort()) {
    for (const value of values.get(key) ?? []) search.append(key, value);
  }
  const link = new URL(url);
  link.search = search.toString();
  return link.toString();
}
