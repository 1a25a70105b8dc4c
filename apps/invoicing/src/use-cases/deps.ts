import type { Clock } from '@billing/clock';
import type { CommittedEventsListener } from '@billing/runtime';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Directory } from '../domain/directory.js';
import type { HandOverTracker } from '../events/hand-over-tracker.js';

/** What the invoicing use cases need: the service's database, its clock, the accounts directory. */
export interface InvoicingDeps {
  orm: MikroORM;
  clock: Clock;
  directory: Directory;
  /**
   * Told each committed change's events (runChange's `committedEvents`): hands the draft line and
   * invoice events to the accounts read models (events/read-model-handover.ts). Unset: JetStream
   * alone delivers them.
   */
  committedEvents?: CommittedEventsListener | undefined;
  /**
   * The hand-overs under way after the charge consumer's and the grouped-invoice issuer's commits.
   * For a test-clock organization they hand its invoice events (and a renewal invoice's
   * `draft_invoice_line.invoiced` events) over just after the commit, so AwaitCharges (the test
   * clock's "everything due is invoiced") waits for them too: an account read right after an
   * advance then already shows those lines gone and the invoices counted. A real-clock organization's events reach the read models through the stream.
   */
  handOvers?: HandOverTracker | undefined;
}
