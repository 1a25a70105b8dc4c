import { describe, expect, it } from 'vitest';
import { BatchPipeline } from './batch-pipeline.js';

/** A batch under the test's control: what it was given, and hands to admit or end it. */
interface HeldBatch {
  items: number[];
  admit: () => void;
  end: () => void;
  fail: (error: Error) => void;
}

function heldPipeline() {
  const batches: HeldBatch[] = [];
  const log: string[] = [];
  const pipeline = new BatchPipeline<number>(
    (items, admitNext) =>
      new Promise<void>((resolve, reject) => {
        const index = batches.length;
        log.push(`start ${index}: ${items.join(',')}`);
        batches.push({
          items,
          admit: admitNext,
          end: () => {
            log.push(`end ${index}`);
            resolve();
          },
          fail: reject,
        });
      }),
  );
  return { pipeline, batches, log };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await turn();
  await turn();
  return done;
};

describe('BatchPipeline', () => {
  it('makes one batch of what was pushed in one turn, and the next of what came while it ran', async () => {
    const { pipeline, batches, log } = heldPipeline();
    for (const item of [1, 2, 3]) pipeline.push(item);
    await turn();
    pipeline.push(4);
    pipeline.push(5);
    await turn();
    expect(log).toEqual(['start 0: 1,2,3']);
    batches[0]!.end();
    await turn();
    await turn();
    expect(log).toEqual(['start 0: 1,2,3', 'end 0', 'start 1: 4,5']);
  });

  it('starts the next batch once the running one admits it, before it ends', async () => {
    const { pipeline, batches, log } = heldPipeline();
    pipeline.push(1);
    await turn();
    pipeline.push(2);
    await turn();
    expect(log).toEqual(['start 0: 1']);
    batches[0]!.admit();
    await turn();
    expect(log).toEqual(['start 0: 1', 'start 1: 2']);
    // Batch 1 has not admitted: a third waits for it, although batch 0 ends.
    pipeline.push(3);
    batches[0]!.end();
    await turn();
    await turn();
    expect(log).toEqual(['start 0: 1', 'start 1: 2', 'end 0']);
    batches[1]!.end();
    await turn();
    await turn();
    expect(log).toEqual(['start 0: 1', 'start 1: 2', 'end 0', 'end 1', 'start 2: 3']);
  });

  it('admitted() resolves once everything queued is in a batch that admitted the next; drained() once all ended', async () => {
    const { pipeline, batches } = heldPipeline();
    pipeline.push(1);
    pipeline.push(2);
    const admitted = pipeline.admitted();
    const drained = pipeline.drained();
    expect(await settled(admitted)).toBe(false);
    batches[0]!.admit();
    expect(await settled(admitted)).toBe(true);
    expect(await settled(drained)).toBe(false);
    batches[0]!.end();
    expect(await settled(drained)).toBe(true);
    expect(await settled(pipeline.admitted())).toBe(true);
  });

  it('goes on after a failed batch, which admits the next when it fails', async () => {
    const { pipeline, batches, log } = heldPipeline();
    pipeline.push(1);
    await turn();
    pipeline.push(2);
    batches[0]!.fail(new Error('batch failed'));
    await turn();
    await turn();
    expect(log).toEqual(['start 0: 1', 'start 1: 2']);
    batches[1]!.end();
    expect(await settled(pipeline.drained())).toBe(true);
  });
});
