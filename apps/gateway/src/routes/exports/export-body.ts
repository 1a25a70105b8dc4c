import { z } from 'zod';
import { parseOrThrow, parsePageRequest } from '../../http/index.js';

/** An export's body: the list's filters and ordering as a JSON object (docs/api.md "Exports"). */
export const ListFilterBody = z
  .record(z.string(), z.unknown())
  .meta({ id: 'ExportFilters', description: 'The list’s filters and `ordering`, as in its query string.' });

/**
 * A uuid no object has: the filter of an export whose filters can match nothing (an unknown
 * account code), so its job still runs and makes a file of the header alone, as the list answers
 * an empty page.
 */
export const NOTHING_MATCHES = '00000000-0000-0000-0000-000000000000';

/**
 * The list's filters from an export's body, validated exactly as the list validates its query
 * (400 naming the field): numbers and booleans are read as the query's text would be, null as a
 * filter not given; `ordering` as the list reads it (unknown fields dropped). Paging is ignored:
 * an export has every matching row.
 */
export function filtersFromBody<Schema extends z.ZodObject>(
  body: Record<string, unknown>,
  schema: Schema,
  orderingFields: readonly string[],
): { filters: z.output<Schema>; ordering: string[] } {
  const values: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(body)) {
    if (name === 'page' || name === 'page_size' || value === null) continue;
    values[name] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  const { ordering, ...filters } = values;
  if (ordering !== undefined && typeof ordering !== 'string') {
    parseOrThrow(z.object({ ordering: z.string() }), { ordering });
  }
  return {
    filters: parseOrThrow(schema, filters),
    ordering: parsePageRequest({ ordering }, orderingFields).ordering,
  };
}
