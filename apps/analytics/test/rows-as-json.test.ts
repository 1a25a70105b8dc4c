/**
 * The batch writes send their rows as one JSON array (db/sql-rows rowsAsJson): the rows go in in
 * the given order (an activity's `seq` is its recording order) and every value lands as its
 * column's type makes it, as a bound value would: Dates to the millisecond, decimal text rounded
 * by the column's scale (exponent notation included; a MoneyDecimal as its text), numbers,
 * booleans, and null or a missing value as NULL. A value a column cannot hold (NaN, an invalid
 * Date) is refused, as binding it was, not written as NULL. The combined statement of several
 * writes (runWrites' WITH) and the other upserts are compared row by row with one-by-one in
 * subscription-changes-batch.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction, selectBound } from '@billing/db';
import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { activityInserts } from '../src/db/activity-batch-store.js';
import { invoiceActivityRow } from '../src/db/invoice-activity-store.js';
import { runWrites } from '../src/db/sql-rows.js';
import { mrrTotalsMoves } from '../src/db/subscription-mrr-batch-store.js';
import type { ActivityRecord } from '../src/domain/activity-ledger.js';
import { useAnalyticsService } from './support/analytics-service.js';

const service = useAnalyticsService();
const run = <T>(work: Parameters<typeof inTransaction<T>>[1]) => inTransaction(service.service().orm, work);

/** An activity row as the invoice events write them, with the overrides (the columns tested). */
function activity(organizationId: string, id: string, overrides: Partial<ActivityRecord>): ActivityRecord {
  const invoice = { uuid: randomUUID(), account: randomUUID() };
  const at = new Date('2026-03-01T00:00:00.123Z');
  return { ...invoiceActivityRow(organizationId, 'invoice_sent', invoice, randomUUID(), false, at), id, ...overrides };
}

describe('rows written as one JSON array', () => {
  it('inserts activities in the given order (seq) with their values as the columns type them', async () => {
    const organizationId = randomUUID();
    // Ids in descending order, so that an insert ordered by id would number them the other way round.
    const ids = [
      'ffffffff-0000-4000-8000-000000000003',
      '88888888-0000-4000-8000-000000000002',
      '00000000-0000-4000-8000-000000000001',
    ];
    const records = [
      activity(organizationId, ids[0]!, {
        type: 'new_biz',
        new_mrr: '12.345',
        mrr_change: '1.5e1',
        old_mrr: new MoneyDecimal('-7.5') as unknown as string,
        new_quantity: 3,
        plan_key: 'p-1',
      }),
      activity(organizationId, ids[1]!, {
        type: 'churn',
        is_churn: true,
        new_mrr: '0',
        old_terms: randomUUID(),
        custom_churn_reason: 'too "expensive" \\ for them',
      }),
      activity(organizationId, ids[2]!, {
        type: 'renew',
        invoice_id: undefined as unknown as null,
        date: new Date('2026-12-31T23:59:59.999Z'),
      }),
    ];
    await run((em) => runWrites(em, [activityInserts(records)]));

    const rows = await run((em) =>
      selectBound<Record<string, unknown>>(
        em,
        `select id, type, old_mrr, new_mrr, mrr_change, new_quantity, plan_key, is_churn, old_terms, custom_churn_reason,
                invoice_id, date, created_date
           from activity where organization_id = ? order by seq`,
        [organizationId],
      ),
    );
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows[0]).toMatchObject({
      type: 'new_biz',
      new_mrr: '12.35',
      mrr_change: '15.00',
      old_mrr: '-7.50',
      new_quantity: 3,
      plan_key: 'p-1',
      is_churn: false,
    });
    expect(rows[1]).toMatchObject({
      type: 'churn',
      new_mrr: '0.00',
      is_churn: true,
      old_terms: records[1]!.old_terms,
      custom_churn_reason: 'too "expensive" \\ for them',
      plan_key: null,
    });
    expect(rows[2]!.invoice_id).toBeNull();
    expect(new Date(rows[2]!.date as string).toISOString()).toBe('2026-12-31T23:59:59.999Z');
    expect(new Date(rows[0]!.created_date as string).toISOString()).toBe('2026-03-01T00:00:00.123Z');
  });

  it('adds totals moves to the stored totals (an upsert on the JSON rows)', async () => {
    const organizationId = randomUUID();
    const move = (total: string, count: number) =>
      mrrTotalsMoves(
        new Map([
          [organizationId, { total_mrr: total, future_mrr: '1.005', pending_mrr: '-0.50', subscriptions_count: count }],
        ]),
      );
    await run((em) => runWrites(em, [move('100.10', 2)]));
    await run((em) => runWrites(em, [move('-0.10', -1)]));
    const [totals] = await run((em) =>
      selectBound<Record<string, unknown>>(
        em,
        'select total_mrr, future_mrr, pending_mrr, subscriptions_count from mrr_totals where organization_id = ?',
        [organizationId],
      ),
    );
    expect(totals).toEqual({ total_mrr: '100.00', future_mrr: '2.02', pending_mrr: '-1.00', subscriptions_count: 1 });
  });

  it('refuses a value no column holds instead of writing NULL', async () => {
    const organizationId = randomUUID();
    const invalidDate = activity(organizationId, randomUUID(), { date: new Date('not a date') });
    const notANumber = activity(organizationId, randomUUID(), { new_quantity: Number.NaN });
    expect(() => activityInserts([invalidDate])).toThrow('date: an invalid date');
    expect(() => activityInserts([notANumber])).toThrow('new_quantity: NaN is not a number a column can hold');
  });
});
