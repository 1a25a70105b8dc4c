/**
 * gaps.md §8, for many events at once: the invoice activities (invoice_sent, invoice_paid,
 * payment_made) a batch of events records, decided as recording them one by one in order would.
 *
 * One by one, an event reads what the events before it wrote: a payment_made takes the subscription
 * of the invoice's first invoice activity, an invoice activity names the subscription on the
 * invoice's payment_made activities that have none yet. A batch reads the stored state once per
 * round and carries the rest forward here.
 */

export type InvoiceActivityType = 'invoice_sent' | 'invoice_paid' | 'payment_made';

/** One event's invoice activity to record. */
export interface InvoiceActivityInput {
  organizationId: string;
  type: InvoiceActivityType;
  invoice: {
    uuid: string;
    account: string;
    /** The subscription of the invoice's first line that has one (payment events do not say: null). */
    subscription: string | null;
  };
  at: Date;
}

/** What a round reads from the store before deciding. */
export interface StoredInvoiceFacts {
  /**
   * The subscription of each invoice's first invoice activity (invoice_sent / invoice_paid), by
   * invoiceKey, for invoices that have one (its subscription may be null).
   */
  firstSubscription: ReadonlyMap<string, string | null>;
  /** The subscriptions made by mistake (cancel_invalid): their invoices' activities are dropped. */
  invalid: ReadonlySet<string>;
}

/** The activity an input records. */
export interface PlannedInvoiceActivity<T extends InvoiceActivityInput> {
  input: T;
  subscriptionId: string | null;
  dropped: boolean;
}

/** Stored payment_made activities of the invoice without a subscription get this one. */
export interface PaymentSubscriptionBackfill {
  organizationId: string;
  invoiceId: string;
  subscriptionId: string;
  dropped: boolean;
}

export const invoiceKey = (organizationId: string, invoiceId: string): string => `${organizationId}/${invoiceId}`;

const keyOf = (input: InvoiceActivityInput) => invoiceKey(input.organizationId, input.invoice.uuid);

/** An invoice activity that names a subscription names it on the invoice's payment_made activities too. */
const namesPayments = (input: InvoiceActivityInput) => input.type !== 'payment_made' && input.invoice.subscription;

/**
 * Splits the inputs (in order) into rounds a batch can record with one read of the store each: a
 * new round starts at an invoice activity that would name its subscription on a payment_made
 * recorded earlier in the same round (that one's activity.created shows it without: it must be
 * stored and published before). Streams keep invoice and payment events apart, so a consumer's
 * batch is one round.
 */
export function invoiceActivityRounds<T extends InvoiceActivityInput>(inputs: readonly T[]): T[][] {
  const rounds: T[][] = [];
  let round: T[] = [];
  let payments = new Set<string>();
  for (const input of inputs) {
    if (namesPayments(input) && payments.has(keyOf(input))) {
      rounds.push(round);
      round = [];
      payments = new Set();
    }
    if (input.type === 'payment_made') payments.add(keyOf(input));
    round.push(input);
  }
  if (round.length > 0) rounds.push(round);
  return rounds;
}

/** The invoices whose first invoice activity a round's payment_made activities need (by invoiceKey). */
export function paymentInvoices(
  inputs: readonly InvoiceActivityInput[],
): Array<{ organizationId: string; invoiceId: string }> {
  const seen = new Map<string, { organizationId: string; invoiceId: string }>();
  for (const input of inputs)
    if (input.type === 'payment_made')
      seen.set(keyOf(input), { organizationId: input.organizationId, invoiceId: input.invoice.uuid });
  return [...seen.values()];
}

/** The subscriptions whose invalid flag a round needs: its invoices' and those its payments take. */
export function subscriptionsToCheck(
  inputs: readonly InvoiceActivityInput[],
  firstSubscription: ReadonlyMap<string, string | null>,
): string[] {
  const ids = new Set<string>();
  for (const input of inputs) if (input.invoice.subscription) ids.add(input.invoice.subscription);
  for (const id of firstSubscription.values()) if (id) ids.add(id);
  return [...ids];
}

/**
 * The activities of one round (see invoiceActivityRounds), in order, and the backfills of the
 * stored payment_made activities: per invoice, the first of the round's invoice activities that
 * names a subscription (after it, none of the stored ones is without).
 */
export function planInvoiceActivities<T extends InvoiceActivityInput>(
  round: readonly T[],
  stored: StoredInvoiceFacts,
): { activities: PlannedInvoiceActivity<T>[]; backfills: PaymentSubscriptionBackfill[] } {
  const first = new Map(stored.firstSubscription);
  const backfilled = new Set<string>();
  const dropped = (subscriptionId: string | null) => subscriptionId !== null && stored.invalid.has(subscriptionId);
  const activities: PlannedInvoiceActivity<T>[] = [];
  const backfills: PaymentSubscriptionBackfill[] = [];
  for (const input of round) {
    const key = keyOf(input);
    if (input.type === 'payment_made') {
      const subscriptionId = first.get(key) ?? null;
      activities.push({ input, subscriptionId, dropped: dropped(subscriptionId) });
      continue;
    }
    const subscriptionId = input.invoice.subscription;
    if (!first.has(key)) first.set(key, subscriptionId);
    if (subscriptionId && !backfilled.has(key)) {
      backfilled.add(key);
      backfills.push({
        organizationId: input.organizationId,
        invoiceId: input.invoice.uuid,
        subscriptionId,
        dropped: dropped(subscriptionId),
      });
    }
    activities.push({ input, subscriptionId, dropped: dropped(subscriptionId) });
  }
  return { activities, backfills };
}
