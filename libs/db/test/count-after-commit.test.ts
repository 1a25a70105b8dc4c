import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countAfterCommit, inTransaction } from '../src/index.js';
import { Widget } from './support/entities.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('db_count');
});
afterAll(async () => db?.dispose());

describe('countAfterCommit', () => {
  it('counts the sum per key once, after the commit', async () => {
    const counted: Array<[string, number]> = [];
    const seenInside: number[] = [];
    await inTransaction(db.orm, async (em) => {
      em.create(Widget, { id: randomUUID(), code: `C-${randomUUID()}`, quantity: 1 });
      countAfterCommit(em, 'renewed', 2, (total) => counted.push(['renewed', total]));
      countAfterCommit(em, 'renewed', 3, (total) => counted.push(['renewed', total]));
      countAfterCommit(em, 'issued', 1, (total) => counted.push(['issued', total]));
      countAfterCommit(em, 'nothing', 0, (total) => counted.push(['nothing', total]));
      seenInside.push(counted.length);
    });
    expect(seenInside).toEqual([0]);
    expect(counted).toEqual([
      ['renewed', 5],
      ['issued', 1],
    ]);
  });

  it('never counts a transaction that rolls back, whether its work throws or its flush fails', async () => {
    const counted: number[] = [];
    await expect(
      inTransaction(db.orm, async (em) => {
        countAfterCommit(em, 'renewed', 4, (total) => counted.push(total));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    const code = `R-${randomUUID()}`;
    await inTransaction(db.orm, async (em) => {
      em.create(Widget, { id: randomUUID(), code, quantity: 1 });
    });
    // The unique key breaks at the flush, after the work returned: nothing is committed, nothing counted.
    await expect(
      inTransaction(db.orm, async (em) => {
        countAfterCommit(em, 'renewed', 10, (total) => counted.push(total));
        em.create(Widget, { id: randomUUID(), code, quantity: 1 });
      }),
    ).rejects.toThrow();
    expect(counted).toEqual([]);

    await inTransaction(db.orm, async (em) => {
      countAfterCommit(em, 'renewed', 1, (total) => counted.push(total));
    });
    expect(counted).toEqual([1]);
  });
});
