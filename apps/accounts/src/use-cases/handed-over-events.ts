/**
 * The (consumer, event) pairs whose inbox rows this process saw committed through a producer's
 * hand-over (ReadModelService.ApplyEvents): the stream's copy of such an event would only find its
 * inbox row, so its durable consumer acknowledges it at once instead, without a transaction. That
 * is exactly what the inbox would have made of it: the row is committed and never removed. A pair
 * is forgotten once its copy came (a redelivery of that copy finds the inbox row as before), and
 * the oldest pairs are forgotten beyond `limit` (their copies then find the inbox row as before).
 * Another replica's hand-overs are not known here: their copies go through the inbox.
 */
export class HandedOverEvents {
  private readonly done = new Set<string>();

  constructor(private readonly limit = 50_000) {}

  /** After the commit of the transaction that holds (or found) their inbox rows. */
  committed(entries: Iterable<{ consumer: string; eventId: string }>): void {
    for (const { consumer, eventId } of entries) this.done.add(keyOf(consumer, eventId));
    for (const key of this.done) {
      if (this.done.size <= this.limit) break;
      this.done.delete(key);
    }
  }

  /** Whether the consumer's inbox holds the event for sure; forgets it. */
  takeDone(consumer: string, eventId: string): boolean {
    return this.done.delete(keyOf(consumer, eventId));
  }
}

const keyOf = (consumer: string, eventId: string): string => `${consumer}\u0000${eventId.toLowerCase()}`;
