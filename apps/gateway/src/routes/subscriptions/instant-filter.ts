import { z } from 'zod';
import { FILTER_MESSAGES, parseIsoDate, parseIsoDateTimeInRange } from '../../http/index.js';

/**
 * A `__lte`/`__gte` bound on a subscription timestamp. The contract's list rule is "date filters
 * take YYYY-MM-DD unless stated otherwise", and integrators also send full timestamps, so both are
 * taken: a date stays YYYY-MM-DD text (instantRange reads it as the whole UTC day: gte from its
 * first instant, lte through its last), a date-time becomes that exact instant. `?x=` means no
 * filter; anything else is django-filter's "Enter a valid date/time.".
 */
export function instantFilter() {
  const parsed = z.string().transform((text, context): string | Date => {
    const trimmed = text.trim();
    const date = parseIsoDate(trimmed);
    if (date !== null) return date;
    const instant = parseIsoDateTimeInRange(trimmed);
    if (instant !== null) return instant;
    context.addIssue({ code: 'custom', message: FILTER_MESSAGES.invalidDatetime });
    return z.NEVER;
  });
  return z
    .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), parsed.optional())
    .optional()
    .meta({ type: 'string', description: 'YYYY-MM-DD (a whole UTC day) or an ISO 8601 date-time' });
}
