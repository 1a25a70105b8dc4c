import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, readSnapshot } from '../src/index.js';
import { Widget } from './support/entities.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('db_snapshot');
});
afterAll(async () => db?.dispose());

const code = (): string => `SNAP-${randomUUID().slice(0, 8)}`;

describe('readSnapshot', () => {
  it('sees the state of its first read in every later read, whatever commits in between', async () => {
    const first = code();
    await inTransaction(db.orm, async (em) => {
      em.create(Widget, { id: randomUUID(), code: first, quantity: 1 });
    });
    const counts = await readSnapshot(db.orm.em.fork(), async (em) => {
      const before = await em.count(Widget, { code: { $like: 'SNAP-%' } });
      // Another connection commits a row between the two reads.
      await inTransaction(db.orm, async (other) => {
        other.create(Widget, { id: randomUUID(), code: code(), quantity: 2 });
      });
      const [rows, after] = await em.findAndCount(Widget, { code: { $like: 'SNAP-%' } });
      return { before, after, rows: rows.length };
    });
    expect(counts.after).toBe(counts.before);
    expect(counts.rows).toBe(counts.before);
    // Outside the snapshot the committed row is there.
    expect(await db.orm.em.fork().count(Widget, { code: { $like: 'SNAP-%' } })).toBe(counts.before + 1);
  });

  it('refuses writes: the snapshot is read-only', async () => {
    await expect(
      readSnapshot(db.orm.em.fork(), async (em) => {
        em.create(Widget, { id: randomUUID(), code: code(), quantity: 3 });
        await em.flush();
      }),
    ).rejects.toThrow(/read-only/);
  });
});
