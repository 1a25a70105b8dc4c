/**
 * When an account may be deleted (gaps.md §3: not while it has invoices or non-expired
 * subscriptions). Invoices are known from invoicing's events, or only announced: invoicing names
 * each invoice before committing it, and whether an announced one was committed only invoicing
 * can say (InvoicingService.ConfirmInvoices), so the delete asks it and comes back with the answer
 * (docs/architecture.md "Invoices and account deletion").
 */

export interface DeletionFacts {
  invoices: {
    /** Invoices whose state arrived: they exist. */
    known: number;
    /** Invoices announced, state not arrived yet. */
    announced: readonly string[];
  };
  /** What invoicing answered about announced invoices (empty on a first call). */
  confirmed: { existing: readonly string[]; absent: readonly string[] };
  nonExpiredSubscriptions: number;
  /** The caller will not ask invoicing again: what is still unconfirmed counts as invoices. */
  lastRound: boolean;
}

export type DeletionBlocker =
  | { kind: 'invoices' }
  | { kind: 'subscriptions' }
  /** Invoicing must first say whether these exist; `forget`: announcements confirmed absent. */
  | { kind: 'unconfirmed'; invoices: string[]; forget: string[] }
  | { kind: 'none'; forget: string[] };

export function deletionBlocker(facts: DeletionFacts): DeletionBlocker {
  const announced = new Set(facts.invoices.announced);
  if (facts.invoices.known > 0 || facts.confirmed.existing.some((id) => announced.has(id))) return { kind: 'invoices' };
  if (facts.nonExpiredSubscriptions > 0) return { kind: 'subscriptions' };
  const absent = new Set(facts.confirmed.absent);
  const forget = [...announced].filter((id) => absent.has(id));
  const unconfirmed = [...announced].filter((id) => !absent.has(id));
  if (unconfirmed.length === 0) return { kind: 'none', forget };
  // Announced since the caller's last question, round after round: invoices keep being issued.
  if (facts.lastRound) return { kind: 'invoices' };
  return { kind: 'unconfirmed', invoices: unconfirmed, forget };
}
