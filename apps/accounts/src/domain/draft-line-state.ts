/**
 * What the accounts service knows of a draft invoice line (owned by the invoicing service): its
 * latest state as carried by `invoicing.draft_invoice_line.*`, kept so account reads can list the
 * lines not invoiced yet.
 */

import { isUuid } from '@billing/domain-kit';
import { DRAFT_LINE_EVENT_TYPES, type DraftLineEventType } from '@billing/reference-data';

/** These take the line off its account for good. */
const REMOVING: ReadonlySet<string> = new Set(['draft_invoice_line.deleted', 'draft_invoice_line.invoiced']);

export interface DraftLineState {
  lineId: string;
  organizationId: string;
  accountId: string;
  /** The line's `version` (1 on creation, +1 per committed change, invoicing included). */
  version: number;
  /** The line's `created_date`: account reads list lines oldest first. */
  createdAt: Date;
  /** Deleted or invoiced: kept as a tombstone, no longer listed on the account. */
  removed: boolean;
}

/** The fields of a DraftInvoiceLineChanged payload's line this model reads. */
export interface DraftLineFacts {
  uuid: string;
  account: string;
  created_date?: Date | undefined;
  version: number;
}

/** An event that cannot be applied whatever happens next: never worth retrying. */
export class InvalidDraftLineEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidDraftLineEvent';
  }
}

/** Checks what the ordering, the tenancy and the listing rely on; the rest is only stored. */
export function draftLineStateOf(
  organizationId: string,
  eventType: string,
  facts: DraftLineFacts | undefined,
): DraftLineState {
  if (!facts) throw new InvalidDraftLineEvent(`${eventType} carries no line`);
  const problems: string[] = [];
  if (!isDraftLineEventType(eventType))
    problems.push(`event type "${eventType}" is not one of ${DRAFT_LINE_EVENT_TYPES}`);
  if (!isUuid(organizationId)) problems.push(`organization "${organizationId}" is not a uuid`);
  if (!isUuid(facts.uuid)) problems.push(`uuid "${facts.uuid}" is not a uuid`);
  if (!isUuid(facts.account)) problems.push(`account "${facts.account}" is not a uuid`);
  const createdAt = facts.created_date;
  if (!createdAt || Number.isNaN(createdAt.getTime())) problems.push('created_date is missing');
  if (!Number.isInteger(facts.version) || facts.version < 1) problems.push('version is missing');
  if (problems.length > 0 || !createdAt) {
    throw new InvalidDraftLineEvent(`Unusable draft line ${facts.uuid}: ${problems.join('; ')}`);
  }
  return {
    lineId: facts.uuid.toLowerCase(),
    organizationId,
    accountId: facts.account.toLowerCase(),
    version: facts.version,
    createdAt,
    removed: REMOVING.has(eventType),
  };
}

/**
 * Whether an incoming state replaces the stored one: a strictly greater version does, whichever
 * path delivered it first. At an equal version a removal also wins over the line still listed,
 * so the rule holds whether or not the producer counts the deletion as a change of its own (a
 * `deleted` event carries the line's last state). A removed line therefore never comes back: a
 * late `created` or `updated` carries at most the version of the state the removal ended.
 */
export function supersedes(
  stored: Pick<DraftLineState, 'version' | 'removed'>,
  incoming: Pick<DraftLineState, 'version' | 'removed'>,
): boolean {
  if (incoming.version !== stored.version) return incoming.version > stored.version;
  return incoming.removed && !stored.removed;
}

function isDraftLineEventType(eventType: string): eventType is DraftLineEventType {
  return (DRAFT_LINE_EVENT_TYPES as readonly string[]).includes(eventType);
}
