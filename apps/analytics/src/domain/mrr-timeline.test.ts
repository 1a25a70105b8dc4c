import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { type MrrPoint, monthPoint, pointAt } from './mrr-timeline.js';

const p = (iso: string, mrr: string): MrrPoint => ({ date: new Date(iso), mrr: new MoneyDecimal(mrr) });
const FEB = [new Date('2026-02-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z')] as const;
const show = (r: ReturnType<typeof monthPoint>) => (r ? [r.point.mrr.toString(), r.active] : null);

describe('pointAt', () => {
  it('is the last point at or before the moment', () => {
    const points = [p('2026-01-10T00:00:00Z', '100'), p('2026-01-20T00:00:00Z', '200')];
    expect(pointAt(points, new Date('2026-01-09T00:00:00Z'))).toBeNull();
    expect(pointAt(points, new Date('2026-01-20T00:00:00Z'))?.mrr.toString()).toBe('200');
  });
});

describe('monthPoint', () => {
  it('active at the month end: the MRR then', () => {
    expect(show(monthPoint([p('2026-01-10T00:00:00Z', '100'), p('2026-02-10T00:00:00Z', '300')], ...FEB))).toEqual([
      '300',
      true,
    ]);
  });
  it('ended within the month: its last MRR, not active', () => {
    expect(
      show(
        monthPoint(
          [p('2026-01-10T00:00:00Z', '100'), p('2026-02-05T00:00:00Z', '150'), p('2026-02-10T00:00:00Z', '0')],
          ...FEB,
        ),
      ),
    ).toEqual(['150', false]);
  });
  it('no MRR in the month: no row', () => {
    expect(monthPoint([p('2026-01-10T00:00:00Z', '100'), p('2026-01-20T00:00:00Z', '0')], ...FEB)).toBeNull();
    expect(monthPoint([p('2026-03-10T00:00:00Z', '100')], ...FEB)).toBeNull();
  });
});
