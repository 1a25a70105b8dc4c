/**
 * The `event_type`s of a draft invoice line's events (stream INVOICING, subjects
 * invoicing.<event_type>): the vocabulary shared by their producer (invoicing) and their readers
 * (the accounts read model). `deleted` and `invoiced` end the line's life as a draft: invoiced, it
 * is on an invoice from then on.
 */
export const DRAFT_LINE_EVENT_TYPES = [
  'draft_invoice_line.created',
  'draft_invoice_line.updated',
  'draft_invoice_line.deleted',
  'draft_invoice_line.invoiced',
] as const;

export type DraftLineEventType = (typeof DRAFT_LINE_EVENT_TYPES)[number];
