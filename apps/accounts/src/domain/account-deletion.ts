/**
 * When an account may be deleted (gaps.md §3: not while it has invoices or non-expired
 * subscriptions). Invoices are known from invoicing's events, or only announced: invoicing names
 * each invoice before committing it, and whether an announced one was committed only invoicing
 * can say (InvoicingService.ConfirmInvoices), so the delete asks it and comes back with the answer
 * (docs/architecture.md "Invoices and account deletion"). So does a charge of an expired
 * subscription that is not on an invoice yet: it is on its way to one (the subscription's last
 * charge after a cancellation, say), so the account has an invoice coming; only invoicing can say
 * when it arrived (InvoicingService.ConfirmCharges).
 */

export interface DeletionFacts {
  invoices: {
    /** Invoices whose state arrived: they exist. */
    known: number;
    /** Invoices announced, state not arrived yet. */
    announced: readonly string[];
  };
  /** Charges of the account's expired subscriptions not yet confirmed invoiced. */
  charges: readonly string[];
  /** What invoicing answered about announced invoices and charges (empty on a first call). */
  confirmed: {
    existing: readonly string[];
    absent: readonly string[];
    invoicedCharges: readonly string[];
    uninvoicedCharges: readonly string[];
  };
  nonExpiredSubscriptions: number;
  /** The caller will not ask invoicing again: what is still unconfirmed counts as invoices. */
  lastRound: boolean;
}

export type DeletionBlocker =
  | { kind: 'invoices' }
  | { kind: 'subscriptions' }
  /**
   * Invoicing must first say whether these invoices exist and whether these charges are invoiced;
   * `forget`: announcements confirmed absent; `forgetCharges`: charges confirmed invoiced.
   */
  | { kind: 'unconfirmed'; invoices: string[]; charges: string[]; forget: string[]; forgetCharges: string[] }
  | { kind: 'none'; forget: string[]; forgetCharges: string[] };

export function deletionBlocker(facts: DeletionFacts): DeletionBlocker {
  const announced = new Set(facts.invoices.announced);
  const charges = new Set(facts.charges);
  if (
    facts.invoices.known > 0 ||
    facts.confirmed.existing.some((id) => announced.has(id)) ||
    facts.confirmed.uninvoicedCharges.some((id) => charges.has(id))
  ) {
    return { kind: 'invoices' };
  }
  if (facts.nonExpiredSubscriptions > 0) return { kind: 'subscriptions' };
  const absent = new Set(facts.confirmed.absent);
  const forget = [...announced].filter((id) => absent.has(id));
  const unconfirmed = [...announced].filter((id) => !absent.has(id));
  const invoiced = new Set(facts.confirmed.invoicedCharges);
  const forgetCharges = [...charges].filter((id) => invoiced.has(id));
  const unconfirmedCharges = [...charges].filter((id) => !invoiced.has(id));
  if (unconfirmed.length === 0 && unconfirmedCharges.length === 0) return { kind: 'none', forget, forgetCharges };
  // Announced or named since the caller's last question, round after round: invoices keep coming.
  if (facts.lastRound) return { kind: 'invoices' };
  return { kind: 'unconfirmed', invoices: unconfirmed, charges: unconfirmedCharges, forget, forgetCharges };
}
