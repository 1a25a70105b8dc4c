/** A stretch of consecutive items of one kind, in their order. */
export interface Run<T, K> {
  kind: K;
  items: T[];
}

/**
 * Consecutive items of the same kind, in order: a batch is applied run by run, so what the
 * items do to each other keeps its order (a plan change between two subscription changes stays
 * between them).
 */
export function runsOf<T, K>(items: readonly T[], kindOf: (item: T) => K): Array<Run<T, K>> {
  const runs: Array<Run<T, K>> = [];
  for (const item of items) {
    const kind = kindOf(item);
    const last = runs[runs.length - 1];
    if (last && last.kind === kind) last.items.push(item);
    else runs.push({ kind, items: [item] });
  }
  return runs;
}

/**
 * The items cut into consecutive chunks in which no key occurs twice: a new chunk starts at an
 * item whose key the current chunk already has. Applying a chunk at once then equals applying its
 * items one after the other, since none of them sees another's effect on the same key.
 */
export function chunksWithoutRepeats<T>(items: readonly T[], keyOf: (item: T) => string): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let keys = new Set<string>();
  for (const item of items) {
    const key = keyOf(item);
    if (keys.has(key)) {
      chunks.push(current);
      current = [];
      keys = new Set();
    }
    keys.add(key);
    current.push(item);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
