import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { retentionCohorts } from './retention-cohort.js';

const p = (iso: string, mrr: string) => ({ date: new Date(iso), mrr: new MoneyDecimal(mrr) });
const ends = (cohort: string) =>
  cohort === '2026-01'
    ? [new Date('2026-01-31T23:59:59Z'), new Date('2026-02-28T23:59:59Z'), new Date('2026-03-31T23:59:59Z')]
    : [new Date('2026-02-28T23:59:59Z'), new Date('2026-03-31T23:59:59Z')];

describe('retentionCohorts', () => {
  it('counts the accounts with MRR at the end of each month after their first start', () => {
    const rows = retentionCohorts(
      [
        { cohort: '2026-01', points: [p('2026-01-05T00:00:00Z', '200'), p('2026-02-10T00:00:00Z', '0')] },
        { cohort: '2026-01', points: [p('2026-01-20T00:00:00Z', '100'), p('2026-03-01T00:00:00Z', '150')] },
        { cohort: '2026-02', points: [p('2026-02-03T00:00:00Z', '50')] },
      ],
      ends,
    );
    expect(
      rows.map((r) => ({
        cohort: r.cohort,
        accounts: r.accounts,
        starting_mrr: r.starting_mrr.toString(),
        periods: r.periods.map((x) => [x.period, x.accounts, x.mrr.toString()]),
      })),
    ).toEqual([
      {
        cohort: '2026-01',
        accounts: 2,
        starting_mrr: '300',
        periods: [
          [0, 2, '300'],
          [1, 1, '100'],
          [2, 1, '150'],
        ],
      },
      {
        cohort: '2026-02',
        accounts: 1,
        starting_mrr: '50',
        periods: [
          [0, 1, '50'],
          [1, 1, '50'],
        ],
      },
    ]);
  });
});
