import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';

describe('InFlight', () => {
  it('runs one piece of work per key at a time; a second caller waits for the running one', async () => {
    const inFlight = new InFlight<number>();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const work = async (claimed: string[]) => {
      runs += 1;
      await gate;
      return new Map(claimed.map((key) => [key, runs]));
    };
    const first = inFlight.runMany(['invoice-1'], work, 0);
    const second = inFlight.runMany(['invoice-1'], work, 0);
    const other = inFlight.runMany(['invoice-2'], work, 0);
    release();
    expect([...(await first).values(), ...(await second).values(), ...(await other).values()]).toEqual([2, 2, 2]);
    expect(runs).toBe(2);
    await inFlight.idle();
    expect((await inFlight.runMany(['invoice-1'], work, 0)).get('invoice-1')).toBe(3);
  });

  it('runs many keys in one piece of work, waiting for those already running', async () => {
    const inFlight = new InFlight<string>();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const single = inFlight.runMany(
      ['a'],
      async () => {
        await gate;
        return new Map([['a', 'single']]);
      },
      'none',
    );
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
    expect((await single).get('a')).toBe('single');
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
