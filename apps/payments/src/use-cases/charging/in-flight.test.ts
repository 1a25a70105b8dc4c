import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';

describe('InFlight', () => {
  it('runs one piece of work per key at a time; a second caller gets the running one', async () => {
    const inFlight = new InFlight<number>();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const work = async () => {
      runs += 1;
      await gate;
      return runs;
    };
    const first = inFlight.run('invoice-1', work);
    const second = inFlight.run('invoice-1', work);
    const other = inFlight.run('invoice-2', work);
    release();
    expect(await Promise.all([first, second, other])).toEqual([2, 2, 2]);
    expect(runs).toBe(2);
    await inFlight.idle();
    expect(await inFlight.run('invoice-1', work)).toBe(3);
  });

  it('runs many keys in one piece of work, waiting for those already running', async () => {
    const inFlight = new InFlight<string>();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const single = inFlight.run('a', async () => {
      await gate;
      return 'single';
    });
    const claims: string[][] = [];
    const many = inFlight.runMany(
      ['a', 'b', 'c', 'b'],
      async (claimed) => {
        claims.push(claimed);
        return new Map(claimed.filter((key) => key !== 'c').map((key) => [key, `batch ${key}`]));
      },
      'none',
    );
    release();
    expect(await single).toBe('single');
    expect(await many).toEqual(
      new Map([
        ['b', 'batch b'],
        ['a', 'single'],
      ]),
    );
    expect(claims).toEqual([['b', 'c']]);
    await inFlight.idle();
  });
});
