import { describe, expect, it } from 'vitest';
import { type ClaimOutcome, OutboxFloor } from './outbox-floor.js';

const quiet: ClaimOutcome = {
  lastPosition: 0,
  xid: undefined,
  settles: false,
  firstUnpublished: undefined,
  lowestClaimed: undefined,
  lowestReleased: undefined,
};

/** One claim: plan at `nowMs`, then commit with `outcome`; returns the plan it ran with. */
function claim(floor: OutboxFloor, outcome: Partial<ClaimOutcome>, nowMs = 0) {
  const plan = floor.plan(nowMs);
  floor.committed(plan, { ...quiet, ...outcome });
  return plan;
}

describe('OutboxFloor', () => {
  it('proposes a candidate only from a position read before a later claim got its id, and moves once it settles', () => {
    const floor = new OutboxFloor(30_000);
    // The first claim reads the sequence; its own id came before that read could matter.
    expect(claim(floor, { lastPosition: 50, xid: '1000' })).toMatchObject({ after: 0, settleAfterXid: undefined });
    // The next claim's id (1001) comes after the read of 50: candidate (50, 1001).
    expect(claim(floor, { lastPosition: 80, xid: '1001' })).toMatchObject({ settleAfterXid: undefined });
    // Not settled yet: a transaction older than 1001 still runs.
    expect(claim(floor, { lastPosition: 80, settles: false })).toMatchObject({ settleAfterXid: '1001' });
    expect(floor.current).toBe(0);
    // Settled; rows up to 60 are published, and up to 50 every one that will ever exist is seen.
    claim(floor, { lastPosition: 90, settles: true, firstUnpublished: 61 });
    expect(floor.current).toBe(50);
  });

  it('stays below the first unpublished row and below released rows', () => {
    const floor = new OutboxFloor(30_000);
    claim(floor, { lastPosition: 100, xid: '1' });
    claim(floor, { lastPosition: 100, xid: '2' });
    claim(floor, { lastPosition: 100, xid: '3', settles: true, firstUnpublished: 41, lowestReleased: 30 });
    expect(floor.current).toBe(29);
    // The next candidate (100, 3) settles with nothing unpublished above the floor.
    claim(floor, { lastPosition: 100, settles: true });
    expect(floor.current).toBe(100);
  });

  it('never moves down on a settlement, and forms no candidate from a claim without an id', () => {
    const floor = new OutboxFloor(30_000);
    claim(floor, { lastPosition: 10, xid: '1' });
    claim(floor, { lastPosition: 20, xid: '2' });
    claim(floor, { lastPosition: 20, settles: true });
    expect(floor.current).toBe(10);
    // Empty claims (no id): nothing to settle later.
    expect(claim(floor, { lastPosition: 30 })).toMatchObject({ settleAfterXid: undefined });
    expect(claim(floor, { lastPosition: 30 })).toMatchObject({ settleAfterXid: undefined });
    claim(floor, { lastPosition: 30, xid: '7' });
    claim(floor, { lastPosition: 30, settles: true, firstUnpublished: 5 });
    expect(floor.current).toBe(10);
  });

  it('scans from the start first and every interval, and drops to 0 when that scan finds a row at or below the floor', () => {
    const floor = new OutboxFloor(30_000);
    expect(claim(floor, { lastPosition: 10, xid: '1' }, 0)).toMatchObject({ after: 0, fullScan: true });
    claim(floor, { lastPosition: 10, xid: '2' }, 1_000);
    claim(floor, { lastPosition: 10, settles: true }, 2_000);
    expect(floor.plan(3_000)).toMatchObject({ after: 10, fullScan: false });
    expect(floor.plan(29_999)).toMatchObject({ after: 10, fullScan: false });
    const full = floor.plan(30_000);
    expect(full).toMatchObject({ after: 0, fullScan: true });
    floor.committed(full, { ...quiet, lastPosition: 10, lowestClaimed: 4 });
    expect(floor.current).toBe(0);
    expect(floor.plan(30_001)).toMatchObject({ after: 0, fullScan: false });
  });
});
