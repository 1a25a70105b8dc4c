/**
 * lockAndJournal takes the organizations' activity locks before it journals a row: a batch of an
 * organization whose lock another transaction holds waits for it, and its rows come after what
 * that transaction journaled (positions are taken as rows are inserted).
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { expect, it } from 'vitest';
import { appendToEventLog, lockAndJournal, lockOrganizationActivities } from '../src/db/event-log.js';
import { useAnalyticsService } from './support/analytics-service.js';
import { organizationCreated } from './support/events.js';

const service = useAnalyticsService();

it('waits for a held organization lock before it journals, and journals after the holder', async () => {
  const [org, other] = [randomUUID(), randomUUID()].sort() as [string, string];
  const orm = service.service().orm;
  const heldFirst = organizationCreated(other);
  const [batch1, batch2, batch3] = [organizationCreated(org), organizationCreated(other), organizationCreated(org)];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = inTransaction(orm, async (em) => {
    await lockOrganizationActivities(em, other);
    locked();
    await released;
    await appendToEventLog(em, heldFirst);
  });
  await isLocked;
  let batchDone = false;
  // Both organizations, the held one last in sorted order; an event twice is journaled once.
  const batch = inTransaction(orm, (em) => lockAndJournal(em, [batch1, batch2, batch3, batch1])).then(() => {
    batchDone = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(batchDone).toBe(false);
  release();
  await Promise.all([holder, batch]);

  const rows = await orm.em
    .fork()
    .execute<Array<{ event_id: string; organization_id: string }>>(
      'select event_id, organization_id from event_log where organization_id in (?, ?) order by position',
      [org, other],
    );
  expect(rows.map((row) => row.event_id)).toEqual([
    heldFirst.event_id,
    batch1.event_id,
    batch2.event_id,
    batch3.event_id,
  ]);
});
