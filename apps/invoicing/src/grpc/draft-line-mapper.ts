import type { Write } from '@billing/domain-kit';
import type { invoicingV1 } from '@billing/proto';
import type { DraftLineView } from '../domain/draft-lines/draft-line-view.js';
import type { DraftLineFields } from '../domain/draft-lines/fields.js';

/** The views say null; proto optional fields are unset (`undefined`). */
const unsetIfNull = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export function draftLineMessage(view: DraftLineView): invoicingV1.DraftLine {
  return {
    ...view,
    date_from: unsetIfNull(view.date_from),
    date_to: unsetIfNull(view.date_to),
    discount_percentage: unsetIfNull(view.discount_percentage),
    discount_fixed_per_quantity: unsetIfNull(view.discount_fixed_per_quantity),
    discount_fixed_total: unsetIfNull(view.discount_fixed_total),
    revenue_group: unsetIfNull(view.revenue_group),
    invoice_supplement: unsetIfNull(view.invoice_supplement),
  };
}

/** A REST write arrives as the present field names plus the message; present-but-unset is null. */
export function draftLineWrite(
  input: invoicingV1.DraftLineInput | undefined,
  presentFields: string[],
): Write<DraftLineFields> {
  const message = (input ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = message[field] ?? null;
  return { values: values as Write<DraftLineFields>['values'], present: new Set(presentFields) };
}
