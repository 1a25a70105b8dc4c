import type { EntityManager } from '@mikro-orm/postgresql';
import { afterCommit } from './after-commit.js';

interface Tally {
  total: number;
  count: (total: number) => void;
}

const tallies = new WeakMap<EntityManager, Map<string, Tally>>();

/**
 * Adds `amount` to what the transaction of `em` counts under `key`; once it commits, `count` runs
 * once with the sum (never when it rolls back, and a retry on a new EntityManager starts from
 * zero). For metrics that must only count what happened: a batch of a thousand renewals registers
 * one commit subscriber, not a thousand.
 */
export function countAfterCommit(em: EntityManager, key: string, amount: number, count: (total: number) => void): void {
  if (amount === 0) return;
  let byKey = tallies.get(em);
  if (!byKey) {
    const fresh = new Map<string, Tally>();
    byKey = fresh;
    tallies.set(em, fresh);
    void afterCommit(em, async () => {
      for (const tally of fresh.values()) tally.count(tally.total);
    });
  }
  const tally = byKey.get(key);
  if (tally) tally.total += amount;
  else byKey.set(key, { total: amount, count });
}
