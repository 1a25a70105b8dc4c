import { invalidPage } from '../errors/http-error.js';
import { lastValue } from '../validation/query-values.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Pages beyond this are refused: page x page_size must stay a 32-bit offset for the services. */
const MAX_PAGE = 2_147_483_647;

/** One page of a list as the client asked for it, already checked and clamped. */
export interface PageRequest {
  /** 1-based. */
  page: number;
  pageSize: number;
  /**
   * Ordering terms from `?ordering=`, each a whitelisted field, `-` prefixed for descending, in
   * the client's order. Empty means the list's default ordering.
   */
  ordering: string[];
}

type RawQuery = Record<string, unknown>;

const WHOLE_NUMBER = /^\s*\+?\d+\s*$/;

/**
 * Reads `page`, `page_size` and `ordering` the way DRF's PageNumberPagination and OrderingFilter
 * do:
 * - `page` defaults to 1; anything but a whole number >= 1 is 404 "Invalid page.";
 * - `page_size` defaults to 20, a value over 100 is clamped to 100, an unusable one (0, -1, "x")
 *   falls back to 20;
 * - `ordering` is a comma-separated list; fields outside the whitelist are dropped silently.
 */
export function parsePageRequest(query: RawQuery, orderingFields: readonly string[]): PageRequest {
  return {
    page: parsePage(lastValue(query.page)),
    pageSize: parsePageSize(lastValue(query.page_size)),
    ordering: parseOrdering(lastValue(query.ordering), orderingFields),
  };
}

function parsePage(raw: string | undefined): number {
  if (raw === undefined) return 1;
  if (!WHOLE_NUMBER.test(raw)) throw invalidPage();
  const page = Number(raw);
  if (page < 1 || page > MAX_PAGE) throw invalidPage();
  return page;
}

function parsePageSize(raw: string | undefined): number {
  if (raw === undefined || !WHOLE_NUMBER.test(raw)) return DEFAULT_PAGE_SIZE;
  const size = Number(raw);
  if (size < 1) return DEFAULT_PAGE_SIZE;
  return Math.min(size, MAX_PAGE_SIZE);
}

function parseOrdering(raw: string | undefined, orderingFields: readonly string[]): string[] {
  if (raw === undefined) return [];
  const allowed = new Set(orderingFields);
  return raw
    .split(',')
    .map((term) => term.trim())
    .filter((term) => allowed.has(term.startsWith('-') ? term.slice(1) : term));
}
