/** What one claim needs from the floor, and what the floor needs back to learn from it. */
export interface FloorPlan {
  /** Claim rows above this position (0 on a full scan). */
  after: number;
  /** The pending candidate's id: the claim reports whether its snapshot settles it. */
  settleAfterXid: string | undefined;
  /** The highest position read by a claim that finished before this one began. */
  positionReadBefore: number | undefined;
  fullScan: boolean;
  candidate: FloorCandidate | undefined;
}

/** What a claim's transaction, once committed, tells the floor. */
export interface ClaimOutcome {
  /** The sequence's last handed-out position, read during the claim statement. */
  lastPosition: number;
  /** The claiming transaction's id, when it claimed rows (none is assigned otherwise). */
  xid: string | undefined;
  /** Whether the claim's snapshot settles the candidate of `settleAfterXid` (see OutboxFloor). */
  settles: boolean;
  /** When it settles: the lowest position above `after` unpublished and not claimed, if any. */
  firstUnpublished: number | undefined;
  /** Lowest position this claim took; a full scan taking one at or below the floor drops it. */
  lowestClaimed: number | undefined;
  /** Lowest position the claim gave back (releaseOutboxRows): the floor stays below it. */
  lowestReleased: number | undefined;
}

/** Positions up to `upTo` were handed out before the transaction `afterXid` got its id. */
interface FloorCandidate {
  upTo: number;
  afterXid: string;
}

/**
 * The relay's claim floor, per process and in memory: every outbox row at or below `position` is
 * published for good, or will never exist. Claims scan the unpublished-rows index from there, so
 * a claim costs what is unpublished instead of walking every dead index entry a published row left
 * before it (dead entries stay until a vacuum).
 *
 * Why it is safe. Positions come from a sequence when a row is inserted, so a transaction can
 * commit a lower position after a higher one. But a position is drawn only once its transaction
 * has an id (the `position` default calls pg_current_xact_id() first, migration
 * outbox_position_after_xid), and ids and positions are handed out in increasing order. So when a
 * claim read the sequence's last value L, and a LATER transaction of this relay got id X, every
 * transaction holding a position <= L has an id below X. A claim settles that candidate when, in
 * its snapshot, each transaction with an id below X has ended, or is running without having drawn
 * a position (it holds no lock on the sequence; nextval keeps one until the transaction ends), so
 * what it draws later is above L. Then each row <= L is in that snapshot or will never exist. If
 * the first row unpublished there above the floor, not counting the rows the claim took, is U,
 * every row below min(L + 1, U) is published once the claim commits (but for rows it released:
 * the floor stays below them).
 *
 * Published is for good: only releaseOutboxRows un-marks a row, in the transaction that marked it,
 * and a claim takes only rows whose latest version is unpublished (FOR UPDATE re-checks a row
 * another transaction changed meanwhile). So no replica can hand back a row below this floor, and
 * what the claim skipped (rows locked elsewhere, rows another replica is publishing) is
 * unpublished in its snapshot and keeps U below it. None of this needs the claim to hold the turn.
 *
 * A transaction with an id that runs long and has drawn a position holds the floor where it is
 * until it ends; claims then walk what was published since, as they all did before.
 *
 * Every `fullScanIntervalMs` (and first), a claim scans from the start anyway: one walk over the
 * dead entries, which bounds how long an outside change the proof does not cover (a row marked
 * unpublished again by hand, a position written explicitly) can go unseen; a row found at or below
 * the floor drops it to 0 until the next settlement.
 */
export class OutboxFloor {
  private position = 0;
  private candidate: FloorCandidate | undefined;
  private positionRead: number | undefined;
  private lastFullScanAt: number | undefined;

  constructor(private readonly fullScanIntervalMs: number) {}

  /** The current floor: every row at or below it is published. */
  get current(): number {
    return this.position;
  }

  plan(nowMs: number): FloorPlan {
    const fullScan = this.lastFullScanAt === undefined || nowMs - this.lastFullScanAt >= this.fullScanIntervalMs;
    if (fullScan) this.lastFullScanAt = nowMs;
    const candidate = this.candidate;
    return {
      after: fullScan ? 0 : this.position,
      settleAfterXid: candidate?.afterXid,
      positionReadBefore: this.positionRead,
      fullScan,
      candidate,
    };
  }

  /** After the claim's transaction committed (a rolled-back claim tells nothing). */
  committed(plan: FloorPlan, outcome: ClaimOutcome): void {
    if (plan.fullScan && outcome.lowestClaimed !== undefined && outcome.lowestClaimed <= this.position) {
      // A row at or below the floor was unpublished: something outside the relay's rules happened.
      this.position = 0;
    }
    if (plan.candidate !== undefined && outcome.settles) {
      const bound = Math.min(
        plan.candidate.upTo,
        (outcome.firstUnpublished ?? Number.POSITIVE_INFINITY) - 1,
        (outcome.lowestReleased ?? Number.POSITIVE_INFINITY) - 1,
      );
      this.position = Math.max(this.position, bound);
      if (this.candidate === plan.candidate) this.candidate = undefined;
    }
    if (this.candidate === undefined && outcome.xid !== undefined && plan.positionReadBefore !== undefined) {
      // The read finished before this transaction began, so before it got its id.
      this.candidate = { upTo: plan.positionReadBefore, afterXid: outcome.xid };
    }
    this.positionRead = Math.max(this.positionRead ?? 0, outcome.lastPosition);
  }
}
