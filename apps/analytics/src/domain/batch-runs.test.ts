import { describe, expect, it } from 'vitest';
import { chunksWithoutRepeats, runsOf } from './batch-runs.js';

describe('runsOf', () => {
  it('groups consecutive items of one kind and keeps the order of the runs', () => {
    expect(runsOf(['s1', 's2', 'p1', 's3', 'p2', 'p3'], (item) => item[0])).toEqual([
      { kind: 's', items: ['s1', 's2'] },
      { kind: 'p', items: ['p1'] },
      { kind: 's', items: ['s3'] },
      { kind: 'p', items: ['p2', 'p3'] },
    ]);
  });

  it('makes no run of nothing', () => {
    expect(runsOf([], () => 'x')).toEqual([]);
  });
});

describe('chunksWithoutRepeats', () => {
  it('starts a new chunk where a key repeats, so no chunk holds a key twice', () => {
    const items = ['a1', 'b1', 'c1', 'b2', 'a2', 'b3', 'd1'];
    expect(chunksWithoutRepeats(items, (item) => item[0]!)).toEqual([
      ['a1', 'b1', 'c1'],
      ['b2', 'a2'],
      ['b3', 'd1'],
    ]);
  });

  it('keeps distinct keys in one chunk, and makes no chunk of nothing', () => {
    expect(chunksWithoutRepeats(['a', 'b', 'c'], (item) => item)).toEqual([['a', 'b', 'c']]);
    expect(chunksWithoutRepeats([], (item: string) => item)).toEqual([]);
  });
});
